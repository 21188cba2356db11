package dev.lunchrush.orderservice.publishing;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.admin.NewTopic;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.kafka.core.KafkaAdmin;

import dev.lunchrush.events.Topology;
import dev.lunchrush.support.topology.OrderTopics;

/**
 * The log's topics, declared by the writer. Boot's KafkaAdmin would create them while the context
 * starts and hold the start up for its whole timeout when Kafka is down (act 1 to 3 do not need
 * Kafka), so automatic creation is off ({@code spring.kafka.admin.auto-create=false}) and this class
 * creates them after start, again when the log act is entered (its act class asks), and before a write to the log
 * as long as it has not succeeded (at most once per {@code lunchrush.kafka.topic-retry}).
 */
@Configuration(proxyBeanMethods = false)
public class KafkaTopology {

    private static final Logger log = LoggerFactory.getLogger(KafkaTopology.class);

    private final KafkaAdmin admin;
    private final KafkaSettings settings;
    private final AtomicBoolean created = new AtomicBoolean();
    private volatile long lastAttemptNanos;
    private final Object attempt = new Object();
    private @Nullable CompletableFuture<Boolean> inBackground;

    KafkaTopology(KafkaAdmin admin, KafkaSettings settings) {
        this.admin = admin;
        this.settings = settings;
    }

    @Bean
    NewTopic ordersTopic() {
        return OrderTopics.orders(settings.replicationFactor());
    }

    @Bean
    NewTopic ordersDeadLetterTopic() {
        return OrderTopics.deadLetters(settings.replicationFactor());
    }

    @EventListener(ApplicationReadyEvent.class)
    void createAfterStart() {
        ensureTopicsInBackground();
    }

    /** True once the topics are in place: from then on nothing is asked before a write. */
    public boolean created() {
        return created.get();
    }

    /**
     * {@link #ensureTopics()} off the caller's thread: neither the start, nor an act switch, nor a request
     * on an event loop waits for an absent Kafka. Callers at the same time share one attempt; the future
     * tells whether the topics are in place after it.
     */
    public synchronized CompletableFuture<Boolean> ensureTopicsInBackground() {
        if (created.get()) {
            return CompletableFuture.completedFuture(true);
        }
        if (inBackground == null || inBackground.isDone()) {
            inBackground = CompletableFuture.supplyAsync(this::ensureTopics, runnable -> {
                Thread thread = new Thread(runnable, "kafka-topics");
                thread.setDaemon(true);
                thread.start();
            });
        }
        return inBackground;
    }

    /** True when the topics exist; tries to create them when not, rate-limited while Kafka is away. */
    public boolean ensureTopics() {
        if (created.get()) {
            return true;
        }
        synchronized (attempt) {
            if (created.get()) {
                return true;
            }
            long now = System.nanoTime();
            if (lastAttemptNanos != 0 && now - lastAttemptNanos < settings.topicRetry().toNanos()) {
                return false;
            }
            lastAttemptNanos = now;
            try {
                if (admin.initialize()) {
                    created.set(true);
                    log.info("Kafka topics {} and {} are in place", Topology.ORDERS_TOPIC, Topology.ORDERS_DEAD_LETTER_TOPIC);
                }
                else {
                    log.warn("Kafka is not reachable: topics not created yet; the log act answers 503 meanwhile");
                }
            }
            catch (RuntimeException ex) {
                log.warn("could not create the Kafka topics: {}", ex.getMessage());
            }
            // the pause counts from the end of the attempt: requests queued behind a slow attempt
            // must not start another one, they answer 503 at once
            lastAttemptNanos = System.nanoTime();
            return created.get();
        }
    }
}
