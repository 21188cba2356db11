package dev.lunchrush.analyticsdashboard.receiving;

import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.stereotype.Component;

/**
 * The job gives the feed its whole capacity while the feed delivers (act 3): the log's listener is paused, and
 * resumed once the feed has been empty for a while. Both sources share one capacity ({@code Capacity}): a job that
 * entered act 3 behind in the log would otherwise spend part of it on that backlog, take fewer events from the feed
 * than the lesson's arithmetic says, and the order service would die early. A paused container keeps its
 * partitions (no rebalance) and reads on from where it was.
 */
@Component
class KafkaYield {

    private static final Logger log = LoggerFactory.getLogger(KafkaYield.class);

    private final Supplier<@Nullable MessageListenerContainer> container;

    @Autowired
    KafkaYield(ObjectProvider<KafkaListenerEndpointRegistry> registry) {
        this(() -> {
            KafkaListenerEndpointRegistry found = registry.getIfAvailable();
            return found == null ? null : found.getListenerContainer(KafkaOrderListener.LISTENER_ID);
        });
    }

    KafkaYield(Supplier<@Nullable MessageListenerContainer> container) {
        this.container = container;
    }

    /** Nothing to pause: for a job without a log listener. */
    static KafkaYield none() {
        return new KafkaYield(() -> null);
    }

    /** The feed delivers: the log waits. */
    void feedDelivering() {
        MessageListenerContainer listener = container.get();
        if (listener != null && listener.isRunning() && !listener.isPauseRequested()) {
            listener.pause();
            log.info("the feed delivers: reading the log paused, the job's capacity goes to the feed");
        }
    }

    /** The feed has been empty for a while, or the puller stops: the log is read again. */
    void feedIdle() {
        MessageListenerContainer listener = container.get();
        if (listener != null && listener.isPauseRequested()) {
            listener.resume();
            log.info("the feed is idle: reading the log again");
        }
    }
}
