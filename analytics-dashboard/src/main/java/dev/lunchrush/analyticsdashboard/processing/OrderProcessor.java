package dev.lunchrush.analyticsdashboard.processing;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Service;

import dev.lunchrush.events.Source;

/**
 * The analytics job: every source hands its orders here, a batch at a time (at most 100 Kafka
 * records, 50 RabbitMQ messages, about 200 ms of the feed). A batch waits for its turn at the
 * capacity, then changes the aggregates and the stored offsets in one transaction: one commit per
 * batch rather than per order keeps the database's cost small next to the capacity. The caller
 * acknowledges to its broker only after this returns.
 */
@Service
public class OrderProcessor {

    private final Capacity capacity;
    private final Aggregates aggregates;
    private final ProcessingRate rate;
    private final MeterRegistry registry;
    private final Map<String, AtomicLong> received = new ConcurrentHashMap<>();
    private final Map<String, Counter> deadLettered = new ConcurrentHashMap<>();
    private final AtomicLong version = new AtomicLong();
    private final Object writeLock = new Object();

    OrderProcessor(Capacity capacity, Aggregates aggregates, ProcessingRate rate, MeterRegistry registry) {
        this.capacity = capacity;
        this.aggregates = aggregates;
        this.rate = rate;
        this.registry = registry;
        List.of(Source.SHARED_QUEUE, Source.OWN_QUEUE, Source.FEED, Source.KAFKA).forEach(this::receivedCounter);
        aggregates.received().forEach((source, n) -> receivedCounter(source).set(n));
    }

    private AtomicLong receivedCounter(String source) {
        return received.computeIfAbsent(source, s -> {
            AtomicLong count = new AtomicLong();
            FunctionCounter.builder("orders.received", count, AtomicLong::get)
                    .description("Orders this reader processed, per source (kept with the aggregates, across restarts)")
                    .tag("source", s)
                    .register(registry);
            return count;
        });
    }

    /** Processes the orders at the job's pace; returns when all are in the aggregates. */
    public void process(String source, List<Incoming> orders) throws InterruptedException {
        if (orders.isEmpty()) {
            return;
        }
        capacity.acquire(orders.size());
        synchronized (writeLock) {
            aggregates.apply(source, orders);
        }
        receivedCounter(source).addAndGet(orders.size());
        rate.record(orders.size());
        version.incrementAndGet();
    }

    public void deadLettered(String source) {
        deadLettered.computeIfAbsent(source, s -> Counter.builder("orders.dead.lettered")
                .description("Messages and records that were not order events, dead-lettered")
                .tag("source", s)
                .register(registry)).increment();
        version.incrementAndGet();
    }

    public Map<String, Long> received() {
        Map<String, Long> copy = new java.util.TreeMap<>();
        received.forEach((source, count) -> copy.put(source, count.get()));
        return copy;
    }

    public long deadLettered() {
        return (long) deadLettered.values().stream().mapToDouble(Counter::count).sum();
    }

    public double processedPerSecond() {
        return rate.perSecond();
    }

    /** Changes whenever the numbers change: the page stream sends only then. */
    public long version() {
        return version.get();
    }
}
