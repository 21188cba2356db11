package dev.lunchrush.backlogmonitor.readers;

import java.time.Duration;
import java.util.List;

/** A broker whose readers the monitor asks about, once per poll, from its own thread. */
public interface BacklogSource {

    /** {@code kafka} or {@code rabbitmq}: the {@code source} label of {@code backlog_source_up}. */
    String name();

    /** How old this source's figures may be when they are read before it is asked again. */
    Duration pollInterval();

    /**
     * The backlog of every reader this source knows about right now.
     *
     * @throws Exception when the broker cannot be asked: the source then counts as down
     */
    List<ReaderBacklog> poll() throws Exception;
}
