package dev.lunchrush.analyticsdashboard.processing;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Service;

import dev.lunchrush.events.Source;
import dev.lunchrush.support.ReaderCounts;

/**
 * The analytics job: every source hands its orders here, a batch at a time (about 200 ms of the
 * capacity from the log or the feed, at most 50 RabbitMQ messages). A batch waits for its turn at the
 * capacity, then changes the aggregates and the stored offsets in one transaction: one commit per
 * batch rather than per order keeps the database's cost small next to the capacity. The caller
 * acknowledges to its broker only after this returns.
 */
@Service
public class OrderProcessor {

    private final Capacity capacity;
    private final Aggregates aggregates;
    private final ProcessingRate rate;
    private final ReaderCounts counts;
    private final AtomicLong version = new AtomicLong();
    private final Object writeLock = new Object();

    OrderProcessor(Capacity capacity, Aggregates aggregates, ProcessingRate rate, MeterRegistry registry) {
        this.capacity = capacity;
        this.aggregates = aggregates;
        this.rate = rate;
        List<String> sources = List.of(Source.SHARED_QUEUE, Source.OWN_QUEUE, Source.FEED, Source.KAFKA);
        this.counts = new ReaderCounts(registry,
                "Orders this reader processed, per source (kept with the aggregates, across restarts)", sources);
        // every counter an alert watches exists from the start, at 0 (ReaderCounts makes this one at the first
        // dead letter otherwise); registering the same name and tags again later returns this counter
        sources.forEach(source -> Counter.builder("orders.dead.lettered")
                .description("Messages and records that were not order events, dead-lettered")
                .tag("source", source)
                .register(registry));
        aggregates.received().forEach((source, n) -> counts.receivedCount(source).set(n));
    }

    /**
     * Processes the orders at the job's pace; returns when all are in the aggregates (log records already
     * counted, below their partition's stored offset, are skipped).
     */
    public void process(String source, List<Incoming> orders) throws InterruptedException {
        if (orders.isEmpty()) {
            return;
        }
        capacity.acquire(orders.size());
        int applied;
        synchronized (writeLock) {
            applied = aggregates.apply(source, orders);
        }
        if (applied == 0) {
            return;
        }
        counts.receivedCount(source).addAndGet(applied);
        rate.record(applied);
        version.incrementAndGet();
    }

    public void deadLettered(String source) {
        counts.deadLettered(source);
        version.incrementAndGet();
    }

    public Map<String, Long> received() {
        return counts.received();
    }

    public long deadLettered() {
        return counts.deadLettered();
    }

    public double processedPerSecond() {
        return rate.perSecond();
    }

    /** Changes whenever the numbers change: the page stream sends only then. */
    public long version() {
        return version.get();
    }
}
