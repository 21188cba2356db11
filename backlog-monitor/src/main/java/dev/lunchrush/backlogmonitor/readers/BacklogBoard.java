package dev.lunchrush.backlogmonitor.readers;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;

/**
 * The latest backlog of every reader, per source, and the metrics that export it. When a source
 * cannot be asked, its readers are dropped (not kept at their last values, which would look like a
 * healthy, frozen backlog) and {@code backlog_source_up{source}} goes to 0, so that an alert can tell
 * "no data" from "no backlog". Each reader's two gauges are registered once, when it first shows, and
 * read its latest figures at every scrape; they are removed when it goes.
 */
@Component
public class BacklogBoard {

    static final String UNREAD = "backlog.unread.events";
    static final String AGE = "backlog.oldest.unread.age.seconds";
    static final String SOURCE_UP = "backlog.source.up";

    private final Clock clock;
    private final Map<String, List<ReaderBacklog>> readersBySource = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> sourceUp = new ConcurrentHashMap<>();
    private final MeterRegistry registry;
    /** the gauges of every reader exported now, by reader; guarded by this */
    private final Map<String, Exported> exported = new HashMap<>();

    /** One reader's gauges and the figures they show. */
    private static final class Exported {
        volatile ReaderBacklog latest;
        Gauge unread;
        Gauge age;

        Exported(ReaderBacklog latest) {
            this.latest = latest;
        }
    }

    BacklogBoard(MeterRegistry registry, Clock clock, List<BacklogSource> sources) {
        this.registry = registry;
        this.clock = clock;
        for (BacklogSource source : sources) {
            up(source.name());
        }
    }

    /** A source answered: these are now all of its readers. */
    public synchronized void update(String source, List<ReaderBacklog> readers) {
        readersBySource.put(source, List.copyOf(readers));
        up(source).set(1);
        republish();
    }

    /** A source did not answer: its readers are unknown, not "unchanged". */
    public synchronized void down(String source) {
        readersBySource.remove(source);
        up(source).set(0);
        republish();
    }

    public boolean isUp(String source) {
        AtomicInteger value = sourceUp.get(source);
        return value != null && value.get() == 1;
    }

    public Map<String, Boolean> sources() {
        Map<String, Boolean> sources = new LinkedHashMap<>();
        sourceUp.keySet().stream().sorted().forEach(name -> sources.put(name, isUp(name)));
        return sources;
    }

    /** Every reader of every source that is up, Kafka first, then by name. */
    public List<ReaderBacklog> readers() {
        List<ReaderBacklog> all = new ArrayList<>();
        readersBySource.values().forEach(all::addAll);
        all.sort(Comparator.comparing(ReaderBacklog::kind).thenComparing(ReaderBacklog::reader));
        return all;
    }

    public Clock clock() {
        return clock;
    }

    private AtomicInteger up(String source) {
        return sourceUp.computeIfAbsent(source, name -> {
            AtomicInteger value = new AtomicInteger(0);
            Gauge.builder(SOURCE_UP, value, AtomicInteger::get)
                    .description("1 when the monitor could ask this broker at its last poll, else 0")
                    .tag("source", name)
                    .strongReference(true)
                    .register(registry);
            return value;
        });
    }

    private void republish() {
        Set<String> current = new HashSet<>();
        for (ReaderBacklog reader : readers()) {
            current.add(reader.reader());
            Exported gauges = exported.get(reader.reader());
            if (gauges != null) {
                gauges.latest = reader;
                continue;
            }
            Exported added = new Exported(reader);
            added.unread = Gauge.builder(UNREAD, added, e -> (double) e.latest.unread())
                    .description("Events written and not yet read, per reader (Kafka group or RabbitMQ queue)")
                    .tag("reader", reader.reader())
                    .strongReference(true)
                    .register(registry);
            added.age = Gauge.builder(AGE, added, e -> e.latest.ageSecondsAt(clock.instant()))
                    .description("Age of the oldest unread event, per reader; 0 when nothing is unread")
                    .baseUnit("seconds")
                    .tag("reader", reader.reader())
                    .strongReference(true)
                    .register(registry);
            exported.put(reader.reader(), added);
        }
        // readers that vanished (queue deleted, source down) stop being exported
        exported.entrySet().removeIf(entry -> {
            if (current.contains(entry.getKey())) {
                return false;
            }
            registry.remove(entry.getValue().unread);
            registry.remove(entry.getValue().age);
            return true;
        });
    }
}
