package dev.lunchrush.load.rush;

import java.nio.file.Path;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.lesson.Figures;
import dev.lunchrush.lesson.RateProfile;
import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.ExitCodes;

/**
 * The options of a rush as the user gives them, before they are checked: {@code ./demo rush}'s flags and the control
 * room's JSON ({@code POST /api/rushes}) carry the same ones under the same names ({@code --then-rate} is
 * {@code thenRate}) and are checked here, by one set of rules, into a {@link RateProfile} and the {@link Rush.Settings}.
 *
 * <p>Each numeric and duration option has its bounds here, and nowhere else (the constants below; both READMEs quote
 * them): a rush of at most a day as it runs (durations ÷ speed), at rates one driver on one thread can send as asked
 * (rates × speed), a dashboard capacity that the dashboard itself takes. Beyond them an option is bad input, never a
 * rush that overflows its clock or that the machine cannot run.
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
 * @param seed the orders' random seed; null for a random one (any whole number)
 */
public record RushOptions(@Nullable String profile, double speed, @Nullable Double rate, @Nullable Duration duration,
        @Nullable Double thenRate, @Nullable Duration thenDuration, long count, @Nullable Double dashboardCapacity,
        @Nullable Double budgetMb, long maxInFlight, Duration requestTimeout, @Nullable Long seed) {

    public static final double DEFAULT_SPEED = 1;
    public static final int DEFAULT_MAX_IN_FLIGHT = 2000;
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

    /** {@code speed}: from a tenth of the lesson's pace to a hundred times it. */
    public static final double MIN_SPEED = 0.1;
    public static final double MAX_SPEED = 100;
    /** {@code rate}, {@code thenRate}, and every rate the rush sends at (× speed), in orders per second. */
    public static final double MIN_RATE = 0.1;
    public static final double MAX_RATE = 20_000;
    /** {@code duration}, {@code thenDuration}, and the whole rush as it runs (÷ speed). */
    public static final Duration MIN_DURATION = Duration.ofSeconds(1);
    public static final Duration MAX_DURATION = Duration.ofDays(1);
    /** {@code count}: 0 is no limit. */
    public static final long MAX_COUNT = 100_000_000;
    /** {@code dashboardCapacity}, events per second: what the dashboard's {@code PUT /admin/capacity} takes. */
    public static final double MIN_DASHBOARD_CAPACITY = 1;
    public static final double MAX_DASHBOARD_CAPACITY = 1_000_000;
    /** {@code budgetMb}, decimal megabytes. */
    public static final double MIN_BUDGET_MB = 1;
    public static final double MAX_BUDGET_MB = 100_000;
    /** {@code maxInFlight}. */
    public static final long MIN_IN_FLIGHT = 1;
    public static final long MAX_IN_FLIGHT = 100_000;
    /** {@code requestTimeout}. */
    public static final Duration MIN_REQUEST_TIMEOUT = Duration.ofMillis(100);
    public static final Duration MAX_REQUEST_TIMEOUT = Duration.ofMinutes(5);

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
        if (dashboardCapacity != null) {
            within(naming, "dashboardCapacity", dashboardCapacity, MIN_DASHBOARD_CAPACITY, MAX_DASHBOARD_CAPACITY, " events/s");
        }
        if (budgetMb != null) {
            within(naming, "budgetMb", budgetMb, MIN_BUDGET_MB, MAX_BUDGET_MB, " MB");
        }
        within(naming, "maxInFlight", maxInFlight, MIN_IN_FLIGHT, MAX_IN_FLIGHT, "");
        within(naming, "requestTimeout", requestTimeout, MIN_REQUEST_TIMEOUT, MAX_REQUEST_TIMEOUT);
        return new Rush.Settings(checked, count, dashboardCapacity, budgetMb, (int) maxInFlight, requestTimeout, json, seed);
    }

    /** The profile asked for, checked: inconsistent options, or options beyond their bounds, are bad input. */
    public RateProfile profile(Naming naming) {
        within(naming, "speed", speed, MIN_SPEED, MAX_SPEED, "");
        if (rate != null) {
            within(naming, "rate", rate, MIN_RATE, MAX_RATE, " orders/s");
        }
        if (duration != null) {
            within(naming, "duration", duration, MIN_DURATION, MAX_DURATION);
        }
        if (thenRate != null) {
            within(naming, "thenRate", thenRate, MIN_RATE, MAX_RATE, " orders/s");
        }
        if (thenDuration != null) {
            within(naming, "thenDuration", thenDuration, MIN_DURATION, MAX_DURATION);
        }
        if (count < 0) {
            throw new Invalid("count", naming.of("count") + " must not be negative");
        }
        within(naming, "count", count, 0, MAX_COUNT, " orders (0: no limit)");
        String name = profile != null ? profile
                : rate == null ? "lunch" : thenRate != null || thenDuration != null ? "custom" : "constant";
        RateProfile asked = switch (name) {
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
        return asRun(naming, asked);
    }

    /**
     * The rush as it will run, within the same bounds: its rates × speed at most {@link #MAX_RATE}, its durations ÷
     * speed at most {@link #MAX_DURATION} in all. The option to blame is the one that took it past: the speed, or
     * (at a speed that does not) the step's then-rate's rate, the last duration given, or the count.
     */
    private RateProfile asRun(Naming naming, RateProfile asked) {
        double peak = asked.segments().stream().mapToDouble(RateProfile.Segment::ratePerSecond).max().orElse(0);
        if (peak > MAX_RATE) {
            // each rate given is within bounds: past them it is the speed, or the step's then-rate (4 × its rate)
            String field = speed > 1 ? "speed" : "rate";
            throw new Invalid(field, "%s: the rush would send %s orders/s at %s %s; at most %s orders/s".formatted(
                    naming.of(field), number(peak), naming.of("speed"), number(speed), number(MAX_RATE)));
        }
        Duration total = asked.totalDuration();
        if (total.compareTo(MAX_DURATION) > 0) {
            Duration given = (duration == null ? Duration.ZERO : duration).plus(thenDuration == null ? Duration.ZERO : thenDuration);
            String field = "lunch".equals(asked.name()) ? "speed"
                    : "constant".equals(asked.name()) && duration == null ? "count"
                    : given.compareTo(MAX_DURATION) <= 0 ? "speed"
                    : thenDuration != null ? "thenDuration" : "duration";
            throw new Invalid(field, "%s: the rush would last %s at %s %s; a rush lasts at most %s".formatted(
                    naming.of(field), Durations.format(total), naming.of("speed"), number(speed),
                    Durations.format(MAX_DURATION)));
        }
        return asked;
    }

    private String firstGiven() {
        return rate != null ? "rate" : duration != null ? "duration" : thenRate != null ? "thenRate" : "thenDuration";
    }

    private static void within(Naming naming, String field, double value, double min, double max, String unit) {
        if (!(value >= min && value <= max)) {
            throw new Invalid(field, "%s must be between %s and %s%s, not %s".formatted(naming.of(field), number(min),
                    number(max), unit, number(value)));
        }
    }

    private static void within(Naming naming, String field, Duration value, Duration min, Duration max) {
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new Invalid(field, "%s must be between %s and %s, not %s".formatted(naming.of(field),
                    Durations.format(min), Durations.format(max), Durations.format(value)));
        }
    }

    /** A bound or a value as the user reads it: {@code 20,000}, {@code 0.1}. */
    private static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? "%,d".formatted((long) value) : Figures.trim(value);
    }
}
