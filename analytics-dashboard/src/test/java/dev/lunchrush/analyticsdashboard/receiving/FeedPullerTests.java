package dev.lunchrush.analyticsdashboard.receiving;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.stubbing.Answer;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.web.client.RestClient;

import dev.lunchrush.analyticsdashboard.DashboardProperties;
import dev.lunchrush.analyticsdashboard.processing.Capacity;
import dev.lunchrush.analyticsdashboard.processing.Incoming;
import dev.lunchrush.analyticsdashboard.processing.OrderProcessor;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderItem;
import dev.lunchrush.events.Source;
import dev.lunchrush.support.SecurityProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * What the feed hands out has left it for good, so a batch the puller has pulled must be processed: when
 * processing fails it is processed again, and a graceful stop waits for it. The order service's
 * {@code GET /feed} is a real HTTP server on 127.0.0.1 ({@link FeedStub}); the job behind the puller is a
 * stand-in that fails, or takes its time, as each test needs.
 */
@ExtendWith(OutputCaptureExtension.class)
class FeedPullerTests {

    private final FeedStub feed = new FeedStub();
    private final Capacity capacity = mock(Capacity.class);
    private final OrderProcessor processor = mock(OrderProcessor.class);
    /** The order ids of every call to the processor, and how many pulls the feed had seen by then. */
    private final List<List<String>> calls = new CopyOnWriteArrayList<>();
    private final List<Integer> pullsAtCall = new CopyOnWriteArrayList<>();
    private final List<FeedPuller> started = new ArrayList<>();
    private KafkaYield kafka = KafkaYield.none();

    @BeforeEach
    void capacity() {
        when(capacity.perSecond()).thenReturn(250);
    }

    @AfterEach
    void stop() throws Exception {
        for (FeedPuller puller : started) {
            CountDownLatch stopped = new CountDownLatch(1);
            puller.stop(stopped::countDown);
            stopped.await(10, TimeUnit.SECONDS);
        }
        feed.close();
    }

    @Test
    void aBatchWhoseProcessingFailsIsProcessedAgainUntilItSucceedsAndNothingIsPulledMeanwhile(CapturedOutput output)
            throws Exception {
        List<String> pulled = queue(3);
        AtomicInteger failures = new AtomicInteger(2);
        whenProcessed(orders -> {
            if (failures.getAndDecrement() > 0) {
                throw new DataAccessResourceFailureException("database down");
            }
        });

        start(Map.of());

        await().atMost(Duration.ofSeconds(10)).until(() -> calls.size() == 3);
        assertThat(calls).allSatisfy(ids -> assertThat(ids).isEqualTo(pulled));
        // the batch was held: the feed saw no other pull before it was processed
        assertThat(pullsAtCall).containsOnly(1);
        assertThat(output).containsOnlyOnce("processing 3 orders pulled from the feed failed")
                .containsOnlyOnce("the 3 held feed orders are processed")
                .doesNotContain("not reachable");
    }

    /** The job's capacity goes to the feed while it delivers: the log's listener waits, and reads again once it is idle. */
    @Test
    void whileTheFeedDeliversTheLogWaitsAndIsReadAgainOnceTheFeedIsIdle() throws Exception {
        MessageListenerContainer log = mock(MessageListenerContainer.class);
        AtomicBoolean paused = new AtomicBoolean();
        AtomicLong pausedAt = new AtomicLong();
        AtomicLong resumedAt = new AtomicLong();
        when(log.isRunning()).thenReturn(true);
        when(log.isPauseRequested()).thenAnswer(call -> paused.get());
        doAnswer(call -> {
            pausedAt.set(System.nanoTime());
            paused.set(true);
            return null;
        }).when(log).pause();
        doAnswer(call -> {
            resumedAt.set(System.nanoTime());
            paused.set(false);
            return null;
        }).when(log).resume();
        kafka = new KafkaYield(() -> log);
        queue(3);
        whenProcessed(orders -> { });

        start(Map.of());

        await().atMost(Duration.ofSeconds(10)).until(() -> calls.size() == 1);
        assertThat(paused).as("the log waits while the feed delivers").isTrue();
        // the feed has had nothing for a second: the log is read again, not sooner
        await().atMost(Duration.ofSeconds(15)).untilFalse(paused);
        assertThat(Duration.ofNanos(resumedAt.get() - pausedAt.get())).as("paused for").isGreaterThanOrEqualTo(Duration.ofMillis(900));
        verify(log, times(1)).pause();
        verify(log, times(1)).resume();
    }

    @Test
    void aStopWaitsForTheBatchBeingProcessed() throws Exception {
        List<String> pulled = queue(3);
        CountDownLatch processing = new CountDownLatch(1);
        List<String> processed = new CopyOnWriteArrayList<>();
        whenProcessed(orders -> {
            processing.countDown();
            Thread.sleep(500);
            processed.addAll(pulled);
        });
        FeedPuller puller = start(Map.of());
        assertThat(processing.await(5, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<List<String>> processedAtStop = new CompletableFuture<>();
        puller.stop(() -> processedAtStop.complete(List.copyOf(processed)));

        assertThat(processedAtStop.get(5, TimeUnit.SECONDS)).isEqualTo(pulled);
        assertThat(feed.pulls()).isEqualTo(1);
    }

    @Test
    void aStopLetsAnOpenPullFinishAndProcessesWhatItBrings() throws Exception {
        feed.hold();
        List<String> queued = queue(3);
        List<String> processed = new CopyOnWriteArrayList<>();
        whenProcessed(orders -> processed.addAll(ids(orders)));
        FeedPuller puller = start(Map.of());
        assertThat(feed.awaitHeldPull(Duration.ofSeconds(5))).isTrue();

        CompletableFuture<List<String>> processedAtStop = new CompletableFuture<>();
        puller.stop(() -> processedAtStop.complete(List.copyOf(processed)));
        // the order service answers the open pull just as the stop comes: those orders have left the feed
        feed.release();

        assertThat(processedAtStop.get(5, TimeUnit.SECONDS)).isEqualTo(queued);
        assertThat(feed.left()).isZero();
    }

    @Test
    void aStopGivesUpABatchThatKeepsFailingAfterTheStopTimeoutAndSaysSo(CapturedOutput output) throws Exception {
        queue(3);
        whenProcessed(orders -> {
            throw new DataAccessResourceFailureException("database down");
        });
        FeedPuller puller = start(Map.of("lunchrush.feed.stop-timeout", "1s"));
        await().atMost(Duration.ofSeconds(5)).until(() -> !calls.isEmpty());

        long stopAsked = System.nanoTime();
        CountDownLatch stopped = new CountDownLatch(1);
        puller.stop(stopped::countDown);

        assertThat(stopped.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - stopAsked)).isBetween(Duration.ofMillis(900), Duration.ofSeconds(3));
        assertThat(output).contains("the 3 pulled orders it holds are not processed and are lost");
        // and the puller has ended: no more attempts, one at most that was under way
        int attempts = calls.size();
        await().during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(4)).until(() -> calls.size() <= attempts + 1);
    }

    /** A started puller of the stub's feed, with the given settings over quick test ones. */
    private FeedPuller start(Map<String, String> settings) {
        Map<String, String> properties = new HashMap<>(Map.of(
                "lunchrush.order-service.url", feed.url().toString(),
                "lunchrush.feed.wait-millis", "300",
                "lunchrush.feed.stop-timeout", "3s"));
        properties.putAll(settings);
        DashboardProperties dashboard = new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("lunchrush", DashboardProperties.class);
        FeedPuller puller = new FeedPuller(dashboard, new SecurityProperties(FeedStub.JOB_PASSWORD, null), capacity, processor,
                JsonMapper.builder().build(), kafka, RestClient.builder());
        started.add(puller);
        puller.start();
        return puller;
    }

    /** Every call to the processor is recorded, then does what {@code then} does. */
    private void whenProcessed(Step then) throws InterruptedException {
        Answer<Void> answer = call -> {
            calls.add(ids(call.getArgument(1)));
            pullsAtCall.add(feed.pulls());
            then.run(call.getArgument(1));
            return null;
        };
        doAnswer(answer).when(processor).process(eq(Source.FEED), anyList());
    }

    private List<String> queue(int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            OrderEvent event = new OrderEvent("feed-" + i + "-" + UUID.randomUUID(), Instant.now(), "k-1", "c-1042",
                    List.of(new OrderItem("pad-thai", 2)), "12 Mill Lane", null, OrderEvent.ORIGIN_LIVE, "run-1", i);
            feed.add(event);
            ids.add(event.orderId());
        }
        return ids;
    }

    private static List<String> ids(List<Incoming> orders) {
        return orders.stream().map(order -> order.event().orderId()).toList();
    }

    @FunctionalInterface
    private interface Step {
        void run(List<Incoming> orders) throws Exception;
    }
}
