package dev.lunchrush.support;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * What a reader counts per source: the orders it received ({@code orders.received}, a function
 * counter on a number the reader may restore after a restart) and the messages and records it
 * dead-lettered ({@code orders.dead.lettered}). A source's meters are registered on its first use.
 */
public final class ReaderCounts {

    private final MeterRegistry registry;
    private final String receivedDescription;
    private final Map<String, AtomicLong> received = new ConcurrentHashMap<>();
    private final Map<String, Counter> deadLettered = new ConcurrentHashMap<>();

    /**
     * @param receivedDescription what "received" means for this reader, for {@code orders.received}
     * @param sources the sources registered at once, so that each shows 0 before its first order
     */
    public ReaderCounts(MeterRegistry registry, String receivedDescription, List<String> sources) {
        this.registry = registry;
        this.receivedDescription = receivedDescription;
        sources.forEach(this::receivedCount);
    }

    /** The number of orders received from {@code source}, to add to or to restore. */
    public AtomicLong receivedCount(String source) {
        return received.computeIfAbsent(source, s -> {
            AtomicLong count = new AtomicLong();
            FunctionCounter.builder("orders.received", count, AtomicLong::get)
                    .description(receivedDescription)
                    .tag("source", s)
                    .register(registry);
            return count;
        });
    }

    /** Counts a message or record that was not an order event and went to the dead letters. */
    public void deadLettered(String source) {
        deadLettered.computeIfAbsent(source, s -> Counter.builder("orders.dead.lettered")
                .description("Messages and records that were not order events, dead-lettered")
                .tag("source", s)
                .register(registry)).increment();
    }

    /** Orders received per source, by source name. */
    public Map<String, Long> received() {
        Map<String, Long> copy = new TreeMap<>();
        received.forEach((source, count) -> copy.put(source, count.get()));
        return copy;
    }

    /** Orders received from all sources together. */
    public long receivedTotal() {
        return received.values().stream().mapToLong(AtomicLong::get).sum();
    }

    /** Messages and records dead-lettered, all sources together. */
    public long deadLettered() {
        return (long) deadLettered.values().stream().mapToDouble(Counter::count).sum();
    }
}
