package dev.lunchrush.controlroom.rushes;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.support.problems.FieldProblem;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.load.rush.Durations;
import dev.lunchrush.load.rush.Rush;
import dev.lunchrush.load.rush.RushOptions;

/**
 * {@code POST /api/rushes}' body, the options of {@code ./demo rush} under the names of its flags
 * ({@code {"rate": 50, "duration": "20s"}}, {@code --then-rate} is {@code thenRate}), read into {@link RushOptions}:
 * each field of the right type, durations as the command line writes them ({@code 20s}, {@code 1m30s}, or seconds);
 * then checked by the command line's own rules and bounds ({@link RushOptions#settings}), each refusal a 400 naming
 * its field.
 */
final class RushRequests {

    static final List<String> FIELDS = List.of("profile", "speed", "rate", "duration", "thenRate", "thenDuration",
            "count", "dashboardCapacity", "budgetMb", "maxInFlight", "requestTimeout", "seed");

    private RushRequests() {
    }

    /** The rush the body asks for, checked as the command line checks its flags; 400 naming the field otherwise. */
    static Rush.Settings settings(JsonNode body) {
        try {
            return options(body).settings(RushOptions.Naming.FIELDS, null);
        }
        catch (RushOptions.Invalid ex) {
            throw ProblemException.invalid("Bad request", List.of(new FieldProblem(ex.field(), ex.getMessage())));
        }
    }

    /** The options the body asks for, or 400 naming each field that is not of its type. */
    static RushOptions options(JsonNode body) {
        if (!body.isObject()) {
            throw ProblemException.invalid("Bad request", List.of(new FieldProblem("", "the body must be a JSON object of the rush's options")));
        }
        List<FieldProblem> errors = new ArrayList<>();
        body.propertyNames().forEach(name -> {
            if (!FIELDS.contains(name)) {
                errors.add(new FieldProblem(name, "unknown option; the options are " + String.join(", ", FIELDS)));
            }
        });
        Reader reader = new Reader(body, errors);
        String profile = reader.read("profile", "a profile's name: lunch, constant, step or custom",
                node -> node.isString() ? node.asString() : null);
        Double speed = reader.number("speed");
        Double rate = reader.number("rate");
        Duration duration = reader.duration("duration");
        Double thenRate = reader.number("thenRate");
        Duration thenDuration = reader.duration("thenDuration");
        Long count = reader.whole("count");
        Double dashboardCapacity = reader.number("dashboardCapacity");
        Double budgetMb = reader.number("budgetMb");
        Long maxInFlight = reader.whole("maxInFlight");
        Duration requestTimeout = reader.duration("requestTimeout");
        Long seed = reader.whole("seed");
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("Bad request", errors);
        }
        return new RushOptions(profile, speed == null ? RushOptions.DEFAULT_SPEED : speed, rate, duration, thenRate,
                thenDuration, count == null ? 0 : count, dashboardCapacity, budgetMb,
                maxInFlight == null ? RushOptions.DEFAULT_MAX_IN_FLIGHT : maxInFlight,
                requestTimeout == null ? RushOptions.DEFAULT_REQUEST_TIMEOUT : requestTimeout, seed);
    }

    /** Reads fields, noting each one of the wrong type; absent and null are both "not given". */
    private record Reader(JsonNode body, List<FieldProblem> errors) {

        <T> @Nullable T read(String field, String expected, Function<JsonNode, @Nullable T> value) {
            JsonNode node = body.path(field);
            if (node.isMissingNode() || node.isNull()) {
                return null;
            }
            T read = value.apply(node);
            if (read == null) {
                errors.add(new FieldProblem(field, "must be " + expected + ", not " + node));
            }
            return read;
        }

        @Nullable Double number(String field) {
            return read(field, "a number", node -> node.isNumber() ? node.asDouble() : null);
        }

        @Nullable Long whole(String field) {
            JsonNode node = body.path(field);
            if (node.isIntegralNumber() && !node.canConvertToLong()) {
                errors.add(new FieldProblem(field, "must be a whole number that fits in 64 bits, not " + node));
                return null;
            }
            return read(field, "a whole number", node2 -> node2.isIntegralNumber() ? node2.asLong() : null);
        }

        @Nullable Duration duration(String field) {
            JsonNode node = body.path(field);
            if (node.isString()) {
                try {
                    return Durations.parse(node.asString());
                }
                catch (IllegalArgumentException ex) {
                    errors.add(new FieldProblem(field, ex.getMessage()));
                    return null;
                }
            }
            return read(field, "a duration like \"30s\", \"2m\" or \"1m30s\", or seconds", node2 -> node2.isNumber()
                    && node2.asDouble() > 0 ? Duration.ofMillis(Math.round(node2.asDouble() * 1000)) : null);
        }
    }
}
