package dev.lunchrush.kitchenscreen.screen;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderItem;

import static org.assertj.core.api.Assertions.assertThat;

/** The journal of shown orders on its own: restarts, a write cut short, what it forgets and how big it gets. */
class ShownJournalTests {

    @TempDir
    Path dir;

    private final TestClock clock = new TestClock(Instant.parse("2026-12-01T11:20:00Z"));
    private final String run = "run-" + UUID.randomUUID();
    private long sequence;

    @Test
    void aRestartedJournalKnowsWhatItShowedAndRebuildsItsCounters() {
        List<OrderEvent> first = orders(50, clock.instant());
        try (ShownJournal journal = journal(Duration.ofDays(2), 1_000_000)) {
            journal.restore(shown -> { });
            ShownJournal.Recorded recorded = journal.record("kafka", first, clock.instant());
            assertThat(recorded.fresh()).hasSize(50);
            assertThat(journal.record("own-queue", first.subList(0, 3), clock.instant()).duplicates()).isEqualTo(3);
        }
        List<ShownOrder> restored = new ArrayList<>();
        try (ShownJournal journal = journal(Duration.ofDays(2), 1_000_000)) {
            journal.restore(restored::add);
            assertThat(restored).extracting(ShownOrder::orderId)
                    .containsExactlyElementsOf(first.stream().map(OrderEvent::orderId).toList());
            assertThat(restored.get(7).summary()).isEqualTo("2× pad-thai, 1× spring-rolls");
            assertThat(journal.counters()).containsEntry("received.kafka", 50L).containsEntry("duplicates", 3L);
            // what Kafka gives again after a crash is recognised, by id, whatever the source
            ShownJournal.Recorded again = journal.record("kafka", first.subList(40, 50), clock.instant());
            assertThat(again.fresh()).isEmpty();
            assertThat(again.duplicates()).isEqualTo(10);
            assertThat(journal.find(first.get(12).orderId())).hasValueSatisfying(order -> {
                assertThat(order.sequence()).isEqualTo(first.get(12).sequence());
                assertThat(order.source()).isEqualTo("kafka");
            });
            assertThat(journal.find(UUID.randomUUID().toString())).isEmpty();
        }
    }

    @Test
    void aWriteCutShortByACrashIsCutOffAndWhatCameBeforeIsKept() throws IOException {
        List<OrderEvent> orders = orders(20, clock.instant());
        try (ShownJournal journal = journal(Duration.ofDays(2), 1_000_000)) {
            journal.restore(shown -> { });
            journal.record("kafka", orders, clock.instant());
        }
        Path segment = segments().get(0);
        long intact = Files.size(segment);
        // the start of a frame: a length that runs past the end of the file, then a few bytes
        Files.write(segment, new byte[] {0, 0, 1, 0, 9, 9, 9, 9, 'B', 1, 2}, StandardOpenOption.APPEND);
        try (ShownJournal journal = journal(Duration.ofDays(2), 1_000_000)) {
            List<ShownOrder> restored = new ArrayList<>();
            journal.restore(restored::add);
            assertThat(restored).hasSize(20);
            assertThat(Files.size(segment)).isEqualTo(intact);
            OrderEvent next = orders(1, clock.instant()).get(0);
            assertThat(journal.record("kafka", List.of(next), clock.instant()).fresh()).hasSize(1);
        }
        try (ShownJournal journal = journal(Duration.ofDays(2), 1_000_000)) {
            List<ShownOrder> restored = new ArrayList<>();
            journal.restore(restored::add);
            assertThat(restored).hasSize(21);
        }
    }

    /**
     * Two days of 2,000 orders an hour with a retention of one day: ids older than the retention are forgotten,
     * files and all; the journal stays under a day and an hour's worth; no forgotten order is shown again.
     */
    @Test
    void forgetsWhatWasShownLongerAgoThanTheRetentionAndStaysBounded() throws IOException {
        Duration retention = Duration.ofDays(1);
        List<OrderEvent> firstHour = new ArrayList<>();
        long maxBytes = 0;
        long maxIds = 0;
        try (ShownJournal journal = journal(retention, 1_000_000)) {
            journal.restore(shown -> { });
            for (int minute = 0; minute < 48 * 60; minute++) {
                List<OrderEvent> batch = orders(33, clock.instant().minusMillis(200));
                if (minute < 60) {
                    firstHour.addAll(batch);
                }
                journal.record("kafka", batch, clock.instant());
                if (minute % 60 == 59) {
                    journal.forget();
                }
                maxBytes = Math.max(maxBytes, journal.bytes());
                maxIds = Math.max(maxIds, journal.ids());
                clock.advance(Duration.ofMinutes(1));
            }
            // a day, an hour of segment and the clocks' minute at most; 33 × 60 × 24 = 47,520 orders a day
            assertThat(maxIds).isLessThanOrEqualTo(33 * 60 * 26);
            assertThat(journal.find(firstHour.get(0).orderId())).isEmpty();
            assertThat(segments()).allSatisfy(segment -> assertThat(startOf(segment))
                    .isGreaterThan(clock.millis() - retention.toMillis() - Duration.ofHours(2).toMillis()));
            // a forgotten order delivered again (a group reading the log from its start) is not shown: expired
            ShownJournal.Recorded again = journal.record("kafka", firstHour.subList(0, 5), clock.instant());
            assertThat(again.fresh()).isEmpty();
            assertThat(again.expired()).isEqualTo(5);
        }
        // on disk: under 0.2 KB per order remembered, and bounded by the retention, not by the orders ever shown
        assertThat((double) maxBytes / maxIds).isLessThan(200);
        assertThat(maxBytes).isLessThan(33L * 60 * 26 * 200);
        // a restart after a day and a half more remembers nothing older than the retention
        clock.advance(Duration.ofHours(36));
        try (ShownJournal journal = journal(retention, 1_000_000)) {
            List<ShownOrder> restored = new ArrayList<>();
            journal.restore(restored::add);
            assertThat(restored).isEmpty();
            assertThat(journal.ids()).isZero();
            // one segment left, new, that carries the counters on
            assertThat(segments()).singleElement().satisfies(segment -> assertThat(Files.size(segment)).isLessThan(200));
            assertLiveFigures(journal);
        }
        // the new segment carries the same figures on to the next restart
        try (ShownJournal journal = journal(retention, 1_000_000)) {
            journal.restore(shown -> { });
            assertLiveFigures(journal);
        }
    }

    /**
     * Every order of the two days was live and shown once, five delivered again expired: the orders shown longer ago
     * than the retention are not imported ones, and the screen's "reached" (received − imported) is all of them.
     */
    private static void assertLiveFigures(ShownJournal journal) {
        Map<String, Long> counters = journal.counters();
        assertThat(counters).containsEntry("received.kafka", 33L * 60 * 48).containsEntry("expired", 5L)
                .doesNotContainKey("duplicates");
        assertThat(counters.getOrDefault("imported", 0L)).as("imported").isZero();
        assertThat(counters.get("received.kafka") - counters.getOrDefault("imported", 0L)).as("reached").isEqualTo(33L * 60 * 48);
    }

    /** Over the bound of ids, the oldest segment goes early, and what was placed before its end is not shown. */
    @Test
    void overTheBoundOfIdsForgetsTheOldestEarlyAndMovesTheHorizon() {
        List<OrderEvent> early;
        try (ShownJournal journal = new ShownJournal(dir, Duration.ofDays(2), 1_000, clock, 250)) {
            journal.restore(shown -> { });
            early = orders(250, clock.instant());
            journal.record("kafka", early, clock.instant());
            clock.advance(Duration.ofSeconds(1));
            for (int i = 0; i < 20; i++) {
                journal.record("kafka", orders(100, clock.instant()), clock.instant());
                clock.advance(Duration.ofSeconds(1));
                assertThat(journal.ids()).isLessThanOrEqualTo(1_000 + 250);
            }
            assertThat(journal.find(early.get(0).orderId())).isEmpty();
            assertThat(journal.record("kafka", early.subList(0, 1), clock.instant()).expired()).isEqualTo(1);
        }
        try (ShownJournal journal = new ShownJournal(dir, Duration.ofDays(2), 1_000, clock, 250)) {
            journal.restore(shown -> { });
            // the moved horizon is in the journal: after a restart, too, the early orders are not shown again
            assertThat(journal.record("kafka", early.subList(1, 2), clock.instant()).expired()).isEqualTo(1);
        }
    }

    /**
     * A catch-up over the bound of ids: 2,000 live orders placed over the last 33 minutes, read now in batches of 100
     * a second, with at most 1,000 ids remembered. The segments forgotten early were shown moments ago, but the orders
     * not read yet were placed after the newest one forgotten: every one of them is shown, and a forgotten one delivered
     * again is not, also after a restart.
     */
    @Test
    void aCatchUpOverTheBoundOfIdsShowsEveryOrderNotReadYet() {
        Instant start = clock.instant();
        List<OrderEvent> backlog = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            backlog.addAll(orders(1, start.minusSeconds(2_000 - i)));
        }
        int shown = 0;
        int expired = 0;
        try (ShownJournal journal = new ShownJournal(dir, Duration.ofDays(2), 1_000, clock, 250)) {
            journal.restore(order -> { });
            for (int from = 0; from < backlog.size(); from += 100) {
                ShownJournal.Recorded recorded = journal.record("kafka", backlog.subList(from, from + 100), clock.instant());
                shown += recorded.fresh().size();
                expired += recorded.expired();
                clock.advance(Duration.ofSeconds(1));
                assertThat(journal.ids()).isLessThanOrEqualTo(1_000 + 250);
            }
            assertThat(List.of(shown, expired)).as("shown, expired").containsExactly(2_000, 0);
            assertThat(journal.find(backlog.get(0).orderId())).isEmpty();
            assertThat(journal.record("kafka", backlog.subList(0, 10), clock.instant()).expired()).isEqualTo(10);
            assertThat(journal.counters()).containsEntry("received.kafka", 2_000L).containsEntry("expired", 10L);
        }
        try (ShownJournal journal = new ShownJournal(dir, Duration.ofDays(2), 1_000, clock, 250)) {
            journal.restore(order -> { });
            // the forgotten ones stay behind the horizon; the remembered ones are duplicates
            ShownJournal.Recorded again = journal.record("kafka", List.of(backlog.get(10), backlog.get(1_999)), clock.instant());
            assertThat(List.of(again.fresh().size(), again.expired(), again.duplicates())).containsExactly(0, 1, 1);
        }
    }

    private ShownJournal journal(Duration retention, long maxIds) {
        return new ShownJournal(dir, retention, maxIds, clock);
    }

    private List<OrderEvent> orders(int count, Instant placedAt) {
        List<OrderEvent> orders = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sequence++;
            orders.add(new OrderEvent(UUID.randomUUID().toString(), placedAt, "k" + (sequence % 7), "customer-" + sequence,
                    List.of(new OrderItem("pad-thai", 2), new OrderItem("spring-rolls", 1)), "12 Mill Lane", null,
                    OrderEvent.ORIGIN_LIVE, run, sequence));
        }
        return orders;
    }

    private List<Path> segments() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }

    private static long startOf(Path segment) {
        String name = segment.getFileName().toString();
        return Long.parseLong(name.substring(6, name.length() - 8));
    }

    /** A clock the test moves. */
    static final class TestClock extends Clock {

        private Instant now;

        TestClock(Instant now) {
            this.now = now;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
