package dev.lunchrush.support.readiness;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Whether a reader reads on, whatever its sources answer ({@code reading} in the readiness group): down while
 * something holds it, each hold named with its reason: its store failing (the batch is tried again, nothing is
 * dead-lettered for it), or the log's offsets it cannot vouch for. Up again when each hold is released.
 */
public final class ReadingReadiness implements HealthIndicator {

    /** The name of the indicator in {@code /actuator/health} and in the readiness group. */
    public static final String NAME = "reading";

    /** The hold of a store that fails. */
    public static final String STORE = "store";

    private final Map<String, String> holds = new ConcurrentHashMap<>();

    /** Holds the reader for {@code what}, saying {@code why}; the last reason of a hold is kept. */
    public void hold(String what, String why) {
        holds.put(what, why);
    }

    public void release(String what) {
        if (!holds.isEmpty()) {
            holds.remove(what);
        }
    }

    public boolean held(String what) {
        return holds.containsKey(what);
    }

    @Override
    public Health health() {
        Map<String, String> now = new TreeMap<>(holds);
        return (now.isEmpty() ? Health.up() : Health.down()).withDetails(now).build();
    }
}
