package dev.lunchrush.kitchenscreen.screen;

import java.io.UTFDataFormatException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.Source;
import dev.lunchrush.kitchenscreen.KitchenScreenProperties;
import dev.lunchrush.support.ReaderCounts;
import dev.lunchrush.support.UnstorableOrderException;
import dev.lunchrush.support.readiness.ReadingReadiness;

/**
 * The screen's state: every order it was given, once, in its kitchen's column; how many reached it
 * from each source; which orders never did. Every source calls {@link #accept}, which records the
 * orders as shown in the database first, so that a redelivery after a crash is recognised.
 */
@Service
public class KitchenScreen {

    private static final Logger log = LoggerFactory.getLogger(KitchenScreen.class);

    private static final List<String> SOURCES = List.of(Source.SHARED_QUEUE, Source.OWN_QUEUE, Source.KAFKA);

    private final ShownJournal journal;
    private final PlacedOrders placedOrders;
    private final KitchenScreenProperties.Screen settings;
    private final Clock clock;
    private final MissingOrders missingOrders;
    private final ScreenLatency latency;
    private final ReaderCounts counts;
    private final ReadingReadiness reading;
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong imported = new AtomicLong();
    private final AtomicLong expired = new AtomicLong();
    private final AtomicLong reached = new AtomicLong();
    private final Map<String, Deque<ShownOrder>> columns = new TreeMap<>();
    private final Deque<ShownOrder> unsent = new ArrayDeque<>();

    KitchenScreen(ShownJournal journal, PlacedOrders placedOrders, KitchenScreenProperties properties,
            ReadingReadiness reading, MeterRegistry registry) {
        this.journal = journal;
        this.reading = reading;
        this.placedOrders = placedOrders;
        this.settings = properties.screen();
        this.clock = Clock.systemUTC();
        this.missingOrders = new MissingOrders(settings.missingGrace().toMillis(), settings.missingListed());
        this.latency = new ScreenLatency(registry);
        this.counts = new ReaderCounts(registry,
                "Orders this reader received, once each, per source (kept across restarts)", SOURCES);
        // every counter an alert watches exists from the start, at 0 (ReaderCounts makes this one at the first
        // dead letter otherwise); registering the same name and tags again later returns this counter
        SOURCES.forEach(source -> Counter.builder("orders.dead.lettered")
                .description("Messages and records that were not order events, dead-lettered")
                .tag("source", source)
                .register(registry));
        // the screen's own missing figures, the same numbers as GET /api/stats' "missing" and "late"
        // gaps older than the grace period are counted when somebody reads the figures (this gauge, /api/stats, the
        // page) or when orders come, not on a timer: the count is the same, and an idle screen does no work
        Gauge.builder("orders.missing", this, KitchenScreen::missing)
                .description("Orders placed that have not reached this screen: gaps in a run's sequence numbers, "
                        + "counted once older than the grace period; goes down when one arrives late")
                .register(registry);
        FunctionCounter.builder("orders.late", missingOrders, MissingOrders::late)
                .description("Orders that arrived after they were counted missing (taken off missing again)")
                .register(registry);
        restore();
    }

    /** Rebuilds counters, columns and the gap finder from the journal after a restart. */
    private void restore() {
        long now = clock.millis();
        long[] restored = new long[1];
        synchronized (this) {
            journal.restore(shown -> {
                missingOrders.seen(shown.run(), shown.sequence(), now);
                addToColumn(shown);
                restored[0]++;
            });
        }
        Map<String, Long> counters = journal.counters();
        counters.forEach((name, n) -> {
            if (name.startsWith(ShownJournal.RECEIVED_PREFIX)) {
                counts.receivedCount(name.substring(ShownJournal.RECEIVED_PREFIX.length())).set(n);
            }
        });
        duplicates.set(counters.getOrDefault(ShownJournal.DUPLICATES, 0L));
        imported.set(counters.getOrDefault(ShownJournal.IMPORTED, 0L));
        expired.set(counters.getOrDefault(ShownJournal.EXPIRED, 0L));
        reached.set(counts.receivedTotal() - imported.get());
        if (restored[0] > 0) {
            log.info("restored {} shown orders ({} ids remembered); received so far {}", restored[0], journal.ids(), counters);
        }
    }

    /**
     * Shows the orders that this screen has not shown before; ignores (and counts) the others.
     *
     * @throws UnstorableOrderException for the first order the journal cannot take, the orders before it shown:
     *     poison, for the source to dead-letter
     * @throws UncheckedIOException when the journal cannot be written (readiness {@code reading} is down until a
     *     batch goes in): nothing of the batch is shown, the source gives it again later
     */
    public void accept(String source, List<OrderEvent> events) {
        accept(source, events, Map.of());
    }

    /**
     * As {@link #accept(String, List)}, each order named in {@code traces} (order id to trace id: those traced) shown
     * with a link to its trace.
     */
    public synchronized void accept(String source, List<OrderEvent> events, Map<String, String> traces) {
        if (events.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        // a gap older than the grace period is missing before an order of it arrives: then it arrived late
        missingOrders.expire(now.toEpochMilli());
        try {
            show(source, journal.record(source, events, now), now, traces);
        }
        catch (RuntimeException ex) {
            if (!aboutTheOrders(ex)) {
                throw journalFailed(ex);
            }
            showOneByOne(source, events, now, traces);
        }
        reading.release(ReadingReadiness.STORE);
    }

    /**
     * The batch failed for something in its orders: each is recorded on its own, so that those that can be are
     * shown, and the first that cannot is named ({@link UnstorableOrderException}) for its source to dead-letter.
     */
    private void showOneByOne(String source, List<OrderEvent> events, Instant now, Map<String, String> traces) {
        for (int i = 0; i < events.size(); i++) {
            try {
                show(source, journal.record(source, events.subList(i, i + 1), now), now, traces);
            }
            catch (RuntimeException ex) {
                if (!aboutTheOrders(ex)) {
                    throw journalFailed(ex);
                }
                reading.release(ReadingReadiness.STORE);
                throw new UnstorableOrderException(i, "order " + events.get(i).orderId() + " cannot be shown: "
                        + (ex.getMessage() == null ? ex.toString() : ex.getMessage()), ex);
            }
        }
    }

    /**
     * Whether a failure to record is the orders' own: anything but the journal's file failing (a field too long for
     * the journal's format is the order's own too, though it comes as an I/O error).
     */
    static boolean aboutTheOrders(RuntimeException ex) {
        return !(ex instanceof UncheckedIOException io) || io.getCause() instanceof UTFDataFormatException;
    }

    private RuntimeException journalFailed(RuntimeException ex) {
        reading.hold(ReadingReadiness.STORE, "the journal cannot be written, the orders are tried again: " + ex.getMessage());
        return ex;
    }

    private void show(String source, ShownJournal.Recorded recorded, Instant now, Map<String, String> traces) {
        counts.receivedCount(source).addAndGet(recorded.fresh().size() + recorded.imported());
        duplicates.addAndGet(recorded.duplicates());
        imported.addAndGet(recorded.imported());
        expired.addAndGet(recorded.expired());
        for (ShownOrder fresh : recorded.fresh()) {
            String trace = traces.isEmpty() ? null : traces.get(fresh.orderId());
            ShownOrder shown = trace == null ? fresh : fresh.withTrace(settings.traceLink() + trace);
            reached.incrementAndGet();
            addToColumn(shown);
            unsent.addLast(shown);
            if (unsent.size() > 200) {
                unsent.removeFirst();
            }
            missingOrders.seen(shown.run(), shown.sequence(), now.toEpochMilli());
            latency.record(shown.latencyMillis());
        }
    }

    private void addToColumn(ShownOrder shown) {
        Deque<ShownOrder> column = columns.computeIfAbsent(shown.kitchenId(), k -> new ArrayDeque<>());
        column.addFirst(shown);
        while (column.size() > settings.recentPerKitchen()) {
            column.removeLast();
        }
    }

    /** Counts a message or record that was not an order event and went to the dead letters. */
    public void deadLettered(String source) {
        counts.deadLettered(source);
    }

    /**
     * Turns gaps older than the grace period into missing orders. Called before the figures are read and before
     * orders are recorded, so that no timer is needed: what a reader sees is what a timer of any resolution gave.
     */
    void expireGaps() {
        missingOrders.expire(clock.millis());
    }

    /** {@code orders_missing}: the missing orders now, gaps older than the grace period counted first. */
    private double missing() {
        expireGaps();
        return missingOrders.missing();
    }

    @Scheduled(fixedDelay = 60_000, initialDelay = 60_000)
    void forgetOldOrders() {
        int forgotten = journal.forget();
        if (forgotten > 0) {
            log.info("forgot {} orders shown more than {} ago", forgotten, settings.rememberShown());
        }
    }

    /** The shown order with this id, if this screen still remembers it. */
    public java.util.Optional<ShownOrder> find(String orderId) {
        return journal.find(orderId);
    }

    /** Orders shown since the last call, oldest first: what the page has not been sent yet. */
    synchronized List<ShownOrder> drainUnsent() {
        List<ShownOrder> list = new ArrayList<>(unsent);
        unsent.clear();
        return list;
    }

    /** Each kitchen's column, newest first. */
    public synchronized Map<String, List<ShownOrder>> columns() {
        Map<String, List<ShownOrder>> copy = new TreeMap<>();
        columns.forEach((kitchen, column) -> copy.put(kitchen, List.copyOf(column)));
        return copy;
    }

    public ScreenStats stats() {
        expireGaps();
        Map<String, Long> receivedNow = counts.received();
        long total = receivedNow.values().stream().mapToLong(Long::longValue).sum();
        long dead = counts.deadLettered();
        PlacedOrders.Placed placed = placedOrders.current();
        return new ScreenStats(receivedNow, total, placed.placed(), placed.reachable(), reached.get(),
                missingOrders.missing(), missingOrders.recent(), missingOrders.late(), duplicates.get(), imported.get(),
                expired.get(), dead, latency.stats());
    }
}
