package dev.lunchrush.backlogmonitor.readers;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.lunchrush.backlogmonitor.BacklogProperties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The brokers are asked when the figures are read, at most once per source's interval, and not at all when
 * nobody reads them; a slow poll holds a reader back at most wait-for-poll.
 */
class BacklogPollerTests {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void pollsWhenReadAtMostOncePerIntervalAndNotWhenNobodyReads() throws Exception {
        CountingSource kafka = new CountingSource("kafka", Duration.ofMillis(400));
        CountingSource rabbit = new CountingSource("rabbitmq", Duration.ofSeconds(30));
        BacklogBoard board = new BacklogBoard(registry, Clock.systemUTC(), List.of(kafka, rabbit));
        BacklogPoller poller = new BacklogPoller(List.of(kafka, rabbit), board, properties(Duration.ofSeconds(2)));
        poller.start();
        try {
            poller.refresh();
            assertThat(kafka.polls.get()).as("the first poll, at the start").isEqualTo(1);
            assertThat(rabbit.polls.get()).isEqualTo(1);
            Gauge unread = registry.get("backlog.unread.events").tag("reader", "kafka:r").gauge();
            assertThat(unread.value()).isEqualTo(1);

            // read again within the interval: the same figures, no poll
            for (int i = 0; i < 10; i++) {
                poller.refresh();
            }
            assertThat(kafka.polls.get()).isEqualTo(1);

            // nobody reads for longer than the interval: nothing is asked
            Thread.sleep(900);
            assertThat(kafka.polls.get()).isEqualTo(1);

            // the next read asks Kafka again (its interval is over) and gets the new figures; RabbitMQ's is not over
            poller.refresh();
            assertThat(kafka.polls.get()).isEqualTo(2);
            assertThat(rabbit.polls.get()).isEqualTo(1);
            assertThat(registry.get("backlog.unread.events").tag("reader", "kafka:r").gauge())
                    .as("the reader's gauge is registered once").isSameAs(unread);
            assertThat(unread.value()).isEqualTo(2);
        }
        finally {
            poller.stop();
        }
    }

    @Test
    void aSlowPollHoldsAReaderBackAtMostWaitForPoll() throws Exception {
        CountingSource kafka = new CountingSource("kafka", Duration.ofMillis(10));
        BacklogBoard board = new BacklogBoard(registry, Clock.systemUTC(), List.of(kafka));
        BacklogPoller poller = new BacklogPoller(List.of(kafka), board, properties(Duration.ofMillis(200)));
        poller.start();
        try {
            poller.refresh();
            kafka.slowMillis = 3_000;
            Thread.sleep(20);
            long started = System.nanoTime();
            poller.refresh();
            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertThat(waitedMillis).isBetween(150L, 1_500L);
            assertThat(registry.get("backlog.unread.events").tag("reader", "kafka:r").gauge().value())
                    .as("the figures of the poll before").isEqualTo(1);
        }
        finally {
            poller.stop();
        }
    }

    private static BacklogProperties properties(Duration waitForPoll) {
        return new BacklogProperties(Duration.ofSeconds(1), Duration.ofSeconds(3), waitForPoll,
                new BacklogProperties.Kafka("orders", List.of(), false, Duration.ofSeconds(10)),
                new BacklogProperties.Rabbitmq(List.of(), Duration.ofSeconds(5)));
    }

    /** A source whose one reader's unread count is the number of polls so far. */
    private static final class CountingSource implements BacklogSource {
        final String name;
        final Duration interval;
        final AtomicInteger polls = new AtomicInteger();
        volatile long slowMillis;

        CountingSource(String name, Duration interval) {
            this.name = name;
            this.interval = interval;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Duration pollInterval() {
            return interval;
        }

        @Override
        public List<ReaderBacklog> poll() throws InterruptedException {
            Thread.sleep(slowMillis);
            int n = polls.incrementAndGet();
            return List.of(new ReaderBacklog(name.equals("kafka") ? "kafka:r" : "rabbitmq:q", name, n, null, Map.of()));
        }
    }
}
