package dev.lunchrush.orderservice.act;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.jspecify.annotations.Nullable;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.FeedStrategy;

/**
 * The current act as a metric, for Grafana's act panels and its act-switch annotation:
 * {@code lunchrush_act_info{act="memory-feed",strategy="block",capacity="2000"} 1}. Exactly one series
 * at a time: at a switch the old series is removed from the registry (the next scrape lacks it, and
 * Prometheus marks it stale) and the new one registered. Micrometer exports a gauge whose name ends in
 * {@code .info} as an info metric, always 1, so "the old one at 0" is not possible anyway.
 * <p>
 * {@code strategy} and {@code capacity} are the in-memory feed's settings, so they carry values only
 * where the feed uses them: {@code strategy} is {@value #NONE} outside act memory-feed, and
 * {@code capacity} is {@value #NONE} outside memory-feed and for {@code unbounded}, which has no bound.
 * ({@link ActState} keeps the last values for the next memory-feed; {@code GET /api/act} shows them.)
 * A switch that changes none of the three labels (log to log) leaves the series as it is.
 */
@Component
class ActInfo {

    static final String NAME = "lunchrush.act.info";
    static final String NONE = "none";

    private final MeterRegistry registry;
    private @Nullable Gauge gauge;
    private @Nullable Tags shown;

    ActInfo(CurrentAct currentAct, MeterRegistry registry) {
        this.registry = registry;
        show(currentAct.get());
    }

    /** Called on the switching thread, inside {@link CurrentAct#change}: switches are shown in their order. */
    @EventListener
    void actChanged(ActChanged change) {
        show(change.current());
    }

    private synchronized void show(ActState state) {
        Tags tags = tags(state);
        if (tags.equals(shown)) {
            return;
        }
        // removed first: a scrape in between sees no act for a moment, never two
        if (gauge != null) {
            registry.remove(gauge);
        }
        shown = tags;
        gauge = Gauge.builder(NAME, () -> 1)
                .description("the order service's current act and, in act memory-feed, the feed's strategy and capacity")
                .tags(tags)
                .register(registry);
    }

    static Tags tags(ActState state) {
        boolean feed = state.act().hasFeed();
        boolean bounded = feed && state.strategy() != FeedStrategy.UNBOUNDED;
        return Tags.of(
                "act", state.act().id(),
                "strategy", feed ? state.strategy().id() : NONE,
                "capacity", bounded ? String.valueOf(state.capacity()) : NONE);
    }
}
