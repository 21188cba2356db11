package dev.lunchrush.analyticsdashboard.processing;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionException;

import dev.lunchrush.events.Source;
import dev.lunchrush.support.ReaderCounts;
import dev.lunchrush.support.UnstorableOrderException;
import dev.lunchrush.support.readiness.ReadingReadiness;

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
    private final ReadingReadiness reading;
    private final AtomicLong version = new AtomicLong();
    private final Object writeLock = new Object();

    OrderProcessor(Capacity capacity, Aggregates aggregates, ProcessingRate rate, ReadingReadiness reading,
            MeterRegistry registry) {
        this.capacity = capacity;
        this.aggregates = aggregates;
        this.rate = rate;
        this.reading = reading;
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
     *
     * @throws UnstorableOrderException for the first order that the database refuses, the orders before it in the
     *     aggregates: poison, for the source to dead-letter
     * @throws RuntimeException when the database fails (readiness {@code reading} is down until a batch goes in):
     *     nothing of the batch is in, the source gives it again later
     */
    public void process(String source, List<Incoming> orders) throws InterruptedException {
        if (orders.isEmpty()) {
            return;
        }
        capacity.acquire(orders.size());
        synchronized (writeLock) {
            try {
                counted(source, aggregates.apply(source, orders));
            }
            catch (RuntimeException ex) {
                if (!aboutTheOrders(ex)) {
                    throw storeFailed(ex);
                }
                applyOneByOne(source, orders);
            }
            reading.release(ReadingReadiness.STORE);
        }
    }

    /**
     * The batch failed for something in its orders: each is applied on its own, so that those that can be are, and
     * the first that cannot is named ({@link UnstorableOrderException}) for its source to dead-letter.
     */
    private void applyOneByOne(String source, List<Incoming> orders) {
        for (int i = 0; i < orders.size(); i++) {
            try {
                counted(source, aggregates.apply(source, orders.subList(i, i + 1)));
            }
            catch (RuntimeException ex) {
                if (!aboutTheOrders(ex)) {
                    throw storeFailed(ex);
                }
                reading.release(ReadingReadiness.STORE);
                Incoming order = orders.get(i);
                throw new UnstorableOrderException(i, "order " + order.event().orderId() + " cannot be stored: "
                        + (ex.getMessage() == null ? ex.toString() : ex.getMessage()), ex);
            }
        }
    }

    /**
     * Whether a failure to store is the orders' own: data the database refuses (a value too long, a constraint), or
     * a failure before the database, in working out what to add. Anything else of the database or its transaction
     * is the store's (down, closed, locked), to be tried again.
     */
    static boolean aboutTheOrders(RuntimeException ex) {
        return ex instanceof DataIntegrityViolationException
                || !(ex instanceof DataAccessException || ex instanceof TransactionException);
    }

    private RuntimeException storeFailed(RuntimeException ex) {
        reading.hold(ReadingReadiness.STORE, "the database fails, the orders are tried again: " + ex.getMessage());
        return ex;
    }

    private void counted(String source, int applied) {
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
