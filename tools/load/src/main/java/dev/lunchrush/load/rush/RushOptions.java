package dev.lunchrush.load.rush;

import java.nio.file.Path;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.ExitCodes;

/**
 * The options of a rush as the user gives them, before they are checked: {@code ./demo rush}'s flags and the control
 * room's JSON ({@code POST /api/rushes}) carry the same ones under the same names ({@code --then-rate} is
 * {@code thenRate}) and are checked here, by one set of rules, into a {@link RateProfile} and the {@link Rush.Settings}.
 *
 * @param profile lunch, constant, step or custom; null: lunch, or constant/custom when a rate is given
 * @param speed time compression: rates × speed, durations ÷ speed
 * @param rate orders per second (constant, step and custom)
 * @param duration how long the rate lasts
 * @param thenRate orders per second after {@code duration} (step and custom)
 * @param thenDuration how long {@code thenRate} lasts
 * @param count stop after this many orders; 0 for no limit
 * @param dashboardCapacity the analytics job's capacity for the rush, restored after; null: the profile's
 * @param budgetMb the in-memory feed's budget for the prediction; null: measured
 * @param maxInFlight requests in flight at most
 * @param requestTimeout per request
 * @param seed the orders' random seed; null for a random one
 */
public record RushOptions(@Nullable String profile, double speed, @Nullable Double rate, @Nullable Duration duration,
        @Nullable Double thenRate, @Nullable Duration thenDuration, long count, @Nullable Double dashboardCapacity,
        @Nullable Double budgetMb, int maxInFlight, Duration requestTimeout, @Nullable Long seed) {

    public static final double DEFAULT_SPEED = 1;
    public static final int DEFAULT_MAX_IN_FLIGHT = 2000;
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

    /** How an option is called where it was given: a flag on the command line, a field in JSON. */
    public enum Naming {
        /** {@code --then-rate} */
        FLAGS,
        /** {@code thenRate} */
        FIELDS;

        /** The option's name, from its field's name. */
        public String of(String field) {
            return this == FIELDS ? field : "--" + field.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
        }
    }

    /** An option that cannot be: bad input (exit code 2 on the command line, 400 over HTTP), naming its field. */
    public static final class Invalid extends DemoException {

        private final String field;

        Invalid(String field, String message) {
            super(message, ExitCodes.BAD_INPUT);
            this.field = field;
        }

        /** The field to blame, as the JSON calls it ({@code thenRate}). */
        public String field() {
            return field;
        }
    }

    /** The settings of the rush these options ask for, checked; {@link Invalid} names the first option that cannot be. */
    public Rush.Settings settings(Naming naming, @Nullable Path json) {
        RateProfile checked = profile(naming);
        positive(naming, "dashboardCapacity", dashboardCapacity);
        positive(naming, "budgetMb", budgetMb);
        if (maxInFlight <= 0) {
            throw new Invalid("maxInFlight", naming.of("maxInFlight") + " must be positive, not " + maxInFlight);
        }
        return new Rush.Settings(checked, count, dashboardCapacity, budgetMb, maxInFlight, requestTimeout, json, seed);
    }

    /** The profile asked for, checked: inconsistent options are bad input. */
    public RateProfile profile(Naming naming) {
        if (!(speed > 0)) {
            throw new Invalid("speed", naming.of("speed") + " must be positive, not " + Figures.trim(speed));
        }
        if (rate != null && !(rate > 0) || thenRate != null && !(thenRate > 0)) {
            throw new Invalid(rate != null && !(rate > 0) ? "rate" : "thenRate", "rates must be positive");
        }
        if (count < 0) {
            throw new Invalid("count", naming.of("count") + " must not be negative");
        }
        String name = profile != null ? profile
                : rate == null ? "lunch" : thenRate != null || thenDuration != null ? "custom" : "constant";
        return switch (name) {
            case "lunch" -> {
                if (rate != null || duration != null || thenRate != null || thenDuration != null) {
                    throw new Invalid(firstGiven(), "the lunch profile has its own rates and durations; use "
                            + naming.of("speed") + " N, or " + naming.of("profile") + " constant/custom with "
                            + naming.of("rate") + " and " + naming.of("duration"));
                }
                yield RateProfile.lunch(speed);
            }
            case "constant" -> {
                if (thenRate != null || thenDuration != null) {
                    throw new Invalid(thenRate != null ? "thenRate" : "thenDuration", naming.of("thenRate") + " and "
                            + naming.of("thenDuration") + " belong to the step and custom profiles");
                }
                if (rate == null) {
                    throw new Invalid("rate", "the constant profile needs " + naming.of("rate") + " R (and "
                            + naming.of("duration") + " D or " + naming.of("count") + " N)");
                }
                Duration length = duration != null ? duration
                        : count > 0 ? Duration.ofMillis((long) Math.ceil(count * 1000.0 / rate)) : null;
                if (length == null) {
                    throw new Invalid("duration", "the constant profile needs " + naming.of("duration")
                            + " D (like 30s or 2m) or " + naming.of("count") + " N");
                }
                yield RateProfile.constant(rate, length, speed);
            }
            case "step" -> RateProfile.twoSteps("step", rate == null ? 100 : rate,
                    duration == null ? Duration.ofSeconds(30) : duration,
                    thenRate == null ? 4 * (rate == null ? 100 : rate) : thenRate,
                    thenDuration == null ? (duration == null ? Duration.ofSeconds(30) : duration) : thenDuration, speed);
            case "custom" -> {
                if (rate == null || duration == null || thenRate == null || thenDuration == null) {
                    throw new Invalid(rate == null ? "rate" : duration == null ? "duration" : thenRate == null ? "thenRate"
                            : "thenDuration", "the custom profile needs " + naming.of("rate") + ", " + naming.of("duration")
                            + ", " + naming.of("thenRate") + " and " + naming.of("thenDuration"));
                }
                yield RateProfile.twoSteps("custom", rate, duration, thenRate, thenDuration, speed);
            }
            default -> throw new Invalid("profile", "unknown profile '" + name + "'; profiles are lunch, constant, step, custom");
        };
    }

    private String firstGiven() {
        return rate != null ? "rate" : duration != null ? "duration" : thenRate != null ? "thenRate" : "thenDuration";
    }

    private static void positive(Naming naming, String field, @Nullable Double value) {
        if (value != null && !(value > 0)) {
            throw new Invalid(field, naming.of(field) + " must be positive, not " + Figures.trim(value));
        }
    }
}
