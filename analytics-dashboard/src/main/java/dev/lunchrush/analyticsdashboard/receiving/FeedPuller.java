package dev.lunchrush.analyticsdashboard.receiving;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.FixedBackOff;
import org.springframework.web.client.RestClient;

import dev.lunchrush.analyticsdashboard.DashboardProperties;
import dev.lunchrush.analyticsdashboard.processing.Capacity;
import dev.lunchrush.analyticsdashboard.processing.Incoming;
import dev.lunchrush.analyticsdashboard.processing.OrderProcessor;
import dev.lunchrush.events.Source;
import dev.lunchrush.support.SecurityProperties;
import dev.lunchrush.support.UnstorableOrderException;

/**
 * Act 3: pulls the order service's in-memory feed ({@code GET /feed}) in a loop, at the job's own
 * pace: it asks for about 200 ms of work, processes it through the capacity, and only then asks
 * again, so it never takes more than its capacity. Outside act 3 the feed answers with nothing, and
 * when the order service is down the loop waits and tries again.
 * <p>
 * What was pulled has left the feed for good, so a pulled batch is held until it is processed: when
 * processing fails (the database, say), the same batch is processed again every second and nothing
 * new is pulled meanwhile. A graceful stop pulls nothing new, lets an open pull finish (the order
 * service may be handing out events at that very moment) and the batch in hand be processed, and
 * gives up only after {@code lunchrush.feed.stop-timeout}, saying what it leaves unprocessed. A crash
 * still loses the batch in hand, which is part of that act's lesson.
 */
@Component
class FeedPuller implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(FeedPuller.class);

    /** How often a pulled batch whose processing failed is processed again. */
    private static final BackOff PROCESSING_RETRY = new FixedBackOff(1000, FixedBackOff.UNLIMITED_ATTEMPTS);
    private static final long UNREACHABLE_PAUSE_MILLIS = 1000;
    private static final long EMPTY_FEED_PAUSE_MILLIS = 500;
    /**
     * How long the feed must have had nothing before the log is read again ({@link KafkaYield}). In act 3 an empty
     * pull has waited {@code wait-millis} already; after a switch out of act 3 the feed answers at once, and the log
     * is read again within this, short enough that act 4's first seconds are read as they come.
     */
    private static final long FEED_IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final DashboardProperties.Feed settings;
    private final FeedClient feed;
    private final Capacity capacity;
    private final OrderProcessor processor;
    private final KafkaYield kafka;
    private volatile @Nullable Pulling pulling;

    FeedPuller(DashboardProperties properties, SecurityProperties credentials, Capacity capacity, OrderProcessor processor,
            JsonMapper json, KafkaYield kafka, RestClient.Builder http) {
        this.kafka = kafka;
        this.settings = properties.feed();
        this.feed = new FeedClient(properties.orderService().url(), credentials.adminPassword(), settings.waitMillis(), json,
                () -> processor.deadLettered(Source.FEED), http);
        this.capacity = capacity;
        this.processor = processor;
    }

    @Override
    public void start() {
        if (!settings.enabled() || pulling != null) {
            return;
        }
        Pulling started = new Pulling();
        pulling = started;
        started.thread.start();
    }

    /**
     * Stops pulling and calls {@code callback} once the batch in hand is processed, or after the stop
     * timeout at the latest.
     */
    @Override
    public void stop(Runnable callback) {
        Pulling stopping = pulling;
        pulling = null;
        if (stopping == null) {
            callback.run();
            return;
        }
        stopping.stop(settings.stopTimeout(), callback);
    }

    @Override
    public void stop() {
        CountDownLatch stopped = new CountDownLatch(1);
        stop(stopped::countDown);
        try {
            // the callback comes after the stop timeout at the latest
            stopped.await(settings.stopTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return pulling != null;
    }

    /**
     * The first phase to stop: the processor, the capacity and the database are not lifecycle beans,
     * the context closes them only after every phase has stopped, so they are all there while the
     * batch in hand is processed.
     */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE;
    }

    /** One run of the loop, from a start to its stop, on a thread of its own. */
    private final class Pulling implements Runnable {

        private final Thread thread = new Thread(this, "feed-puller");
        private final CountDownLatch stopAsked = new CountDownLatch(1);
        private final CompletableFuture<Void> ended = new CompletableFuture<>();
        private volatile List<Incoming> held = List.of();
        private boolean reachable = true;
        private long lastDelivered = System.nanoTime() - FEED_IDLE_NANOS;

        Pulling() {
            thread.setDaemon(true);
        }

        @Override
        public void run() {
            try {
                while (stopAsked.getCount() > 0) {
                    List<Incoming> orders = pullOrPause();
                    if (!orders.isEmpty()) {
                        processUntilDone(orders);
                    }
                }
            }
            catch (InterruptedException ex) {
                // only a stop that gave up waiting interrupts this thread
                Thread.currentThread().interrupt();
            }
            finally {
                kafka.feedIdle();
                ended.complete(null);
            }
        }

        /** The pulled orders; none after a pause, when the feed had nothing or could not be pulled. */
        private List<Incoming> pullOrPause() throws InterruptedException {
            long started = System.nanoTime();
            try {
                List<Incoming> orders = feed.pull(Math.max(1, Math.min(settings.maxPerRequest(), capacity.perSecond() / 5)));
                if (!reachable) {
                    log.info("order service feed reachable again at {}", feed.uri());
                    reachable = true;
                }
                if (!orders.isEmpty()) {
                    lastDelivered = System.nanoTime();
                    kafka.feedDelivering();
                }
                else if (System.nanoTime() - lastDelivered >= FEED_IDLE_NANOS) {
                    kafka.feedIdle();
                }
                if (orders.isEmpty()) {
                    // outside act 3 the feed answers at once: do not spin
                    pause(EMPTY_FEED_PAUSE_MILLIS - (System.nanoTime() - started) / 1_000_000);
                }
                return orders;
            }
            catch (IOException | RuntimeException ex) {
                if (System.nanoTime() - lastDelivered >= FEED_IDLE_NANOS) {
                    // the order service is away (act 3's death, say): the log has the job again
                    kafka.feedIdle();
                }
                if (reachable) {
                    log.info("order service feed not reachable at {} ({}); trying again every second", feed.uri(), ex.toString());
                    reachable = false;
                }
                pause(UNREACHABLE_PAUSE_MILLIS);
                return List.of();
            }
        }

        /** Waits, but not past a stop: between pulls nothing is in hand. */
        private void pause(long millis) throws InterruptedException {
            if (millis > 0) {
                stopAsked.await(millis, TimeUnit.MILLISECONDS);
            }
        }

        /**
         * Processes the batch, again and again if it fails: nobody else has these orders. An order the database
         * refuses is logged whole and counted as dead-lettered (the feed has no dead-letter queue), and the orders
         * after it are processed on.
         */
        private void processUntilDone(List<Incoming> pulled) throws InterruptedException {
            List<Incoming> orders = pulled;
            held = orders;
            BackOffExecution retries = PROCESSING_RETRY.start();
            boolean failed = false;
            while (true) {
                try {
                    processor.process(Source.FEED, orders);
                    break;
                }
                catch (UnstorableOrderException ex) {
                    log.error("dropping an order pulled from the feed that cannot be stored ({}): {}", ex.getMessage(),
                            orders.get(ex.index()).event());
                    processor.deadLettered(Source.FEED);
                    orders = orders.subList(ex.index() + 1, orders.size());
                    held = orders;
                }
                catch (RuntimeException ex) {
                    if (!failed) {
                        log.warn("processing {} orders pulled from the feed failed; they are held and processed again "
                                + "every second, nothing more is pulled meanwhile", orders.size(), ex);
                        failed = true;
                    }
                    Thread.sleep(retries.nextBackOff());
                }
            }
            if (failed) {
                log.info("the {} held feed orders are processed; pulling the feed again", orders.size());
            }
            held = List.of();
        }

        void stop(Duration timeout, Runnable callback) {
            stopAsked.countDown();
            ended.copy().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((done, timedOut) -> {
                if (timedOut != null) {
                    giveUp(timeout);
                }
                callback.run();
            });
        }

        private void giveUp(Duration timeout) {
            List<Incoming> lost = held;
            if (lost.isEmpty()) {
                log.warn("the feed puller did not end within {} ms of the stop: its open pull of {} is cut short, "
                        + "whatever the order service hands out to it now is lost", timeout.toMillis(), feed.uri());
            }
            else {
                log.warn("the feed puller did not end within {} ms of the stop: the {} pulled orders it holds are not "
                        + "processed and are lost", timeout.toMillis(), lost.size());
            }
            thread.interrupt();
        }
    }
}
