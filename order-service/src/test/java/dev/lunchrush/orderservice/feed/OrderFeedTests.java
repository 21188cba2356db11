package dev.lunchrush.orderservice.feed;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.lunchrush.events.FeedStrategy;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderItem;
import dev.lunchrush.support.problems.ProblemException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The feed's strategies and its accounting, on the class itself: exact numbers, no HTTP in between. */
class OrderFeedTests {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final OrderFeed feed = new OrderFeed(new FeedSettings(Duration.ofMillis(300), 2, Duration.ofSeconds(2), 10_000,
            Duration.ofSeconds(30)), registry);
    private final AtomicLong sequence = new AtomicLong();

    @Test
    void unboundedKeepsEverything() {
        for (int i = 0; i < 500; i++) {
            feed.offer(FeedStrategy.UNBOUNDED, 10, this::event);
        }

        FeedFigures figures = feed.figures();
        assertThat(figures.buffered()).isEqualTo(500);
        assertThat(registry.get("order.feed.buffered.events").gauge().value()).isEqualTo(500);
        assertThat(registry.get("order.feed.buffered.bytes").gauge().value()).isEqualTo(figures.bufferedBytes());
        long bytes = feed.take(10_000, Duration.ZERO).join().stream().mapToLong(event -> event.length).sum();
        assertThat(figures.bufferedBytes()).isEqualTo(bytes).isBetween(500L * 900, 500L * 1100);
        assertThat(feed.figures().bufferedBytes()).isZero();
    }

    @Test
    void dropDiscardsTheOldestAndCountsExactly() {
        for (int i = 0; i < 1000; i++) {
            feed.offer(FeedStrategy.DROP, 100, this::event);
        }
        List<byte[]> taken = feed.take(30, Duration.ZERO).join();
        for (int i = 0; i < 50; i++) {
            feed.offer(FeedStrategy.DROP, 100, this::event);
        }

        FeedFigures figures = feed.figures();
        assertThat(figures.accepted()).isEqualTo(1050);
        assertThat(figures.dropped()).isEqualTo(900 + 20);
        assertThat(figures.delivered()).isEqualTo(30);
        assertThat(figures.buffered()).isEqualTo(100);
        assertThat(figures.accepted()).isEqualTo(figures.delivered() + figures.dropped() + figures.buffered());
        // the survivors are the newest: the first one taken was order 901
        assertThat(OrderEventCodec.decode(taken.get(0)).sequence()).isEqualTo(901);
        assertThat(registry.get("order.feed.dropped").functionCounter().count()).isEqualTo(920);
    }

    @Test
    void throttleRefusesWith429AndRetryAfterAndTakesNoSequenceNumber() {
        for (int i = 0; i < 5; i++) {
            feed.offer(FeedStrategy.THROTTLE, 5, this::event);
        }

        assertThatThrownBy(() -> feed.offer(FeedStrategy.THROTTLE, 5, this::event))
                .isInstanceOfSatisfying(ProblemException.class, problem -> {
                    assertThat(problem.status().value()).isEqualTo(429);
                    assertThat(problem.headers()).containsEntry("Retry-After", "2");
                });
        assertThat(sequence.get()).isEqualTo(5);
        assertThat(feed.figures().rejected()).isEqualTo(1);
        assertThat(feed.figures().buffered()).isEqualTo(5);
    }

    @Test
    void blockWaitsForRoomThen503() {
        feed.offer(FeedStrategy.BLOCK, 1, this::event);

        long start = System.nanoTime();
        assertThatThrownBy(() -> feed.offer(FeedStrategy.BLOCK, 1, this::event))
                .isInstanceOfSatisfying(ProblemException.class, problem -> assertThat(problem.status().value()).isEqualTo(503));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(280), Duration.ofSeconds(3));
        assertThat(feed.figures().rejected()).isEqualTo(1);
    }

    @Test
    void blockedProducerGoesOnAsSoonAsTheJobTakes() throws Exception {
        feed.offer(FeedStrategy.BLOCK, 1, this::event);
        CompletableFuture<OrderFeed.Reservation> waiting = CompletableFuture.supplyAsync(
                () -> feed.offer(FeedStrategy.BLOCK, 1, this::event));

        assertThat(feed.take(1, Duration.ZERO).join()).hasSize(1);

        assertThat(waiting.get(2, TimeUnit.SECONDS).event().sequence()).isEqualTo(2);
        assertThat(feed.figures().rejected()).isZero();
    }

    @Test
    void blockLetsAtMostMaxWaitingOrdersWaitAndRefusesTheNextAtOnce() throws Exception {
        feed.offer(FeedStrategy.BLOCK, 1, this::event);
        CompletableFuture<?> first = CompletableFuture.runAsync(() -> feed.offer(FeedStrategy.BLOCK, 1, this::event));
        CompletableFuture<?> second = CompletableFuture.runAsync(() -> feed.offer(FeedStrategy.BLOCK, 1, this::event));
        await().atMost(Duration.ofSeconds(2)).until(() -> feed.waitingForRoom() == 2);

        long start = System.nanoTime();
        assertThatThrownBy(() -> feed.offer(FeedStrategy.BLOCK, 1, this::event))
                .isInstanceOfSatisfying(ProblemException.class, problem -> {
                    assertThat(problem.status().value()).isEqualTo(503);
                    assertThat(problem.getMessage()).contains("2 orders wait for room already");
                });
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(200));
        assertThat(CompletableFuture.allOf(first, second)).failsWithin(Duration.ofSeconds(3));
        assertThat(feed.figures().rejected()).isEqualTo(3);
    }

    @Test
    void aReservationIsInvisibleToTheJobUntilCommittedAndACancelledOneFreesItsRoom() {
        OrderFeed.Reservation held = feed.reserve(FeedStrategy.THROTTLE, 1, this::event);

        assertThat(feed.take(10, Duration.ZERO).join()).as("taken before the commit").isEmpty();
        assertThatThrownBy(() -> feed.reserve(FeedStrategy.THROTTLE, 1, this::event))
                .as("the held room counts").isInstanceOf(ProblemException.class);
        feed.cancel(held);
        assertThat(feed.figures().accepted()).isZero();
        assertThat(feed.figures().buffered()).isZero();

        OrderFeed.Reservation next = feed.reserve(FeedStrategy.THROTTLE, 1, this::event);
        feed.commit(next);
        assertThat(feed.figures().accepted()).isEqualTo(1);
        assertThat(feed.take(10, Duration.ZERO).join()).singleElement()
                .satisfies(bytes -> assertThat(OrderEventCodec.decode(bytes).orderId()).isEqualTo(next.event().orderId()));
    }

    @Test
    void takeWaitsForTheFirstEventWithoutAThreadAndGivesUpWithNothing() throws Exception {
        CompletableFuture<List<byte[]>> pulling = feed.take(10, Duration.ofSeconds(5));
        assertThat(pulling).as("nothing to take yet").isNotDone();
        feed.offer(FeedStrategy.UNBOUNDED, 10, this::event);

        assertThat(pulling.get(5, TimeUnit.SECONDS)).hasSize(1);
        long start = System.nanoTime();
        assertThat(feed.take(10, Duration.ofMillis(200)).get(5, TimeUnit.SECONDS)).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(190), Duration.ofSeconds(3));
        assertThat(feed.figures().delivered()).isEqualTo(1);
    }

    @Test
    void anAbandonedPullIsNotHandedTheNextEvent() throws Exception {
        CompletableFuture<List<byte[]>> gone = feed.take(10, Duration.ofSeconds(5));
        feed.abandon(gone);
        feed.offer(FeedStrategy.UNBOUNDED, 10, this::event);

        assertThat(gone).isNotDone();
        assertThat(feed.figures().buffered()).as("still in the feed for the next pull").isEqualTo(1);
        assertThat(feed.take(10, Duration.ZERO).join()).hasSize(1);
    }

    private OrderEvent event() {
        return event(sequence.incrementAndGet());
    }

    private static OrderEvent event(long sequence) {
        return new OrderEvent("00000000-0000-0000-0000-%012d".formatted(sequence), Instant.parse("2026-11-26T12:20:00Z"),
                "k3", "c-1", List.of(new OrderItem("pad-thai", 2)), "12 Mill Lane", "x".repeat(700),
                OrderEvent.ORIGIN_LIVE, "run", sequence);
    }
}
