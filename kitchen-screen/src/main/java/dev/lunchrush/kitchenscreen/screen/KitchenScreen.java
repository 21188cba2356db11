package dev.lunchrush.kitchenscreen.screen;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.Source;
import dev.lunchrush.kitchenscreen.KitchenScreenProperties;
import dev.lunchrush.support.ReaderCounts;

/**
 * The screen's state: every order it was given, once, in its kitchen's column; how many reached it
 * from each source; which orders never did. Every source calls {@link #accept}, which records the
 * orders as shown in the database first, so that a redelivery after a crash is recognised.
 */
@Service
public class KitchenScreen {

    private static final Logger log = LoggerFactory.getLogger(KitchenScreen.class);

    private static final List<String> SOURCES = List.of(Source.SHARED_QUEUE, Source.OWN_QUEUE, Source.KAFKA);

    private final ShownOrders shownOrders;
    private final PlacedOrders placedOrders;
    private final KitchenScreenProperties.Screen settings;
    private final Clock clock;
    private final MissingOrders missingOrders;
    private final Timer latency;
    private final ReaderCounts counts;
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong imported = new AtomicLong();
    private final AtomicLong reached = new AtomicLong();
    private final AtomicLong lastLatencyMillis = new AtomicLong();
    private final Map<String, Deque<ShownOrder>> columns = new TreeMap<>();
    private final Deque<ShownOrder> unsent = new ArrayDeque<>();

    KitchenScreen(ShownOrders shownOrders, PlacedOrders placedOrders, KitchenScreenProperties properties,
            MeterRegistry registry) {
        this.shownOrders = shownOrders;
        this.placedOrders = placedOrders;
        this.settings = properties.screen();
        this.clock = Clock.systemUTC();
        this.missingOrders = new MissingOrders(settings.missingGrace().toMillis(), settings.missingListed());
        this.latency = Timer.builder("order.to.screen.latency")
                .description("From the order's placedAt to the moment this screen showed it (live orders)")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(30))
                .register(registry);
        this.counts = new ReaderCounts(registry,
                "Orders this reader received, once each, per source (kept across restarts)", SOURCES);
        restore();
    }

    /** Rebuilds counters, columns and the gap finder from the database after a restart. */
    private void restore() {
        Map<String, Long> counters = shownOrders.counters();
        counters.forEach((name, n) -> {
            if (name.startsWith(ShownOrders.RECEIVED_PREFIX)) {
                counts.receivedCount(name.substring(ShownOrders.RECEIVED_PREFIX.length())).set(n);
            }
        });
        duplicates.set(counters.getOrDefault(ShownOrders.DUPLICATES, 0L));
        imported.set(counters.getOrDefault(ShownOrders.IMPORTED, 0L));
        long now = clock.millis();
        List<MissingOrder> sequences = shownOrders.liveSequencesSince(Instant.ofEpochMilli(now).minus(Duration.ofDays(1)));
        sequences.forEach(seen -> missingOrders.seen(seen.run(), seen.sequence(), now));
        reached.set(counts.receivedTotal() - imported.get());
        List<ShownOrder> latest = new ArrayList<>(shownOrders.latest(settings.recentPerKitchen() * 20));
        java.util.Collections.reverse(latest);
        synchronized (this) {
            latest.forEach(this::addToColumn);
        }
        if (!sequences.isEmpty()) {
            log.info("restored {} shown orders; received so far {}", sequences.size(), counters);
        }
    }

    /** Shows the orders that this screen has not shown before; ignores (and counts) the others. */
    public synchronized void accept(String source, List<OrderEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        ShownOrders.Recorded recorded = shownOrders.record(source, events, now);
        counts.receivedCount(source).addAndGet(recorded.fresh().size());
        duplicates.addAndGet(recorded.duplicates());
        for (OrderEvent event : recorded.fresh()) {
            if (!event.isLive()) {
                imported.incrementAndGet();
                continue;
            }
            reached.incrementAndGet();
            ShownOrder shown = ShownOrder.of(event, source, now);
            addToColumn(shown);
            unsent.addLast(shown);
            if (unsent.size() > 200) {
                unsent.removeFirst();
            }
            missingOrders.seen(event.run(), event.sequence(), now.toEpochMilli());
            latency.record(shown.latencyMillis(), TimeUnit.MILLISECONDS);
            lastLatencyMillis.set(shown.latencyMillis());
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

    @Scheduled(fixedDelay = 200)
    void expireGaps() {
        missingOrders.expire(clock.millis());
    }

    @Scheduled(fixedDelay = 3_600_000, initialDelay = 60_000)
    void forgetOldOrders() {
        int forgotten = shownOrders.forgetShownBefore(clock.instant().minus(settings.rememberShown()));
        if (forgotten > 0) {
            log.info("forgot {} orders shown more than {} ago", forgotten, settings.rememberShown());
        }
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
        Map<String, Long> receivedNow = counts.received();
        long total = receivedNow.values().stream().mapToLong(Long::longValue).sum();
        long dead = counts.deadLettered();
        PlacedOrders.Placed placed = placedOrders.current();
        return new ScreenStats(receivedNow, total, placed.placed(), placed.reachable(), reached.get(),
                missingOrders.missing(), missingOrders.recent(), missingOrders.late(), duplicates.get(), imported.get(),
                dead, new ScreenStats.Latency(latency.count(), latency.mean(TimeUnit.MILLISECONDS),
                        latency.max(TimeUnit.MILLISECONDS), lastLatencyMillis.get()));
    }
}
