package dev.lunchrush.support.readiness;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import dev.lunchrush.events.Act;

/**
 * The health indicator of what a service needs in the current act ({@code sources} in the readiness group): up
 * when each of them answers. The act comes from the order service (its own, or asked over HTTP by a reader); an act
 * not known yet (the order service not asked successfully since the start) needs what {@code needs} says for an
 * empty act.
 */
public class ActReadiness implements HealthIndicator {

    /** The name of the indicator in {@code /actuator/health} and in the readiness group. */
    public static final String NAME = "sources";

    private final Supplier<Optional<Act>> act;
    private final Function<Optional<Act>, List<SourceCheck>> needs;

    private final boolean actMatters;

    public ActReadiness(Supplier<Optional<Act>> act, Function<Optional<Act>, List<SourceCheck>> needs) {
        this(act, needs, true);
    }

    private ActReadiness(Supplier<Optional<Act>> act, Function<Optional<Act>, List<SourceCheck>> needs, boolean actMatters) {
        this.act = act;
        this.needs = needs;
        this.actMatters = actMatters;
    }

    /** A service that needs the same sources in every act (the report replayer: the log). */
    public static ActReadiness always(List<SourceCheck> sources) {
        return new ActReadiness(Optional::empty, any -> sources, false);
    }

    @Override
    public Health health() {
        Optional<Act> current = act.get();
        Map<String, Object> details = new LinkedHashMap<>();
        if (actMatters) {
            details.put("act", current.map(Act::id).orElse("unknown (the order service has not answered yet)"));
        }
        boolean up = true;
        for (SourceCheck source : needs.apply(current)) {
            SourceCheck.Answer answer = source.answer();
            details.put(source.name(), (answer.up() ? "up: " : "down: ") + answer.detail());
            up &= answer.up();
        }
        return (up ? Health.up() : Health.down()).withDetails(details).build();
    }
}
