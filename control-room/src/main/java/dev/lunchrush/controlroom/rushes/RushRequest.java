package dev.lunchrush.controlroom.rushes;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;

import dev.lunchrush.events.OrderLimits;
import dev.lunchrush.load.rush.Durations;
import dev.lunchrush.load.rush.RushOptions;
import dev.lunchrush.support.problems.FieldProblem;
import dev.lunchrush.support.problems.ProblemException;

/**
 * {@code POST /api/rushes}' body, the options of {@code ./demo rush} under the names of its flags
 * ({@code {"rate": 50, "duration": "20s"}}, {@code --then-rate} is {@code thenRate}), every one optional. Each
 * option's own bounds, those of {@link RushOptions}, are declared here once: the controller checks them
 * ({@code @Valid}) and the OpenAPI document shows them. What takes more than one option (a profile's needs, the rush
 * as it runs at its speed) and a duration's bounds are {@link RushOptions#settings}' to check, by the command line's
 * rules ({@link #settings}).
 *
 * @param duration as the command line writes it: {@code 20s}, {@code 1m30s}, {@code 500ms}, or seconds
 */
record RushRequest(
        @Pattern(regexp = "lunch|constant|step|custom", message = "must be one of lunch, constant, step, custom")
        @Nullable String profile,
        @DecimalMin(value = "0.1", message = "must be at least {value}") @DecimalMax(value = "100", message = "must be at most {value}")
        @Nullable Double speed,
        @DecimalMin(value = "0.1", message = "must be at least {value}") @DecimalMax(value = "20000", message = "must be at most {value}")
        @Nullable Double rate,
        @Size(max = MAX_DURATION_LENGTH, message = OrderLimits.AT_MOST_CHARACTERS) @Pattern(regexp = DURATION, flags = Pattern.Flag.CASE_INSENSITIVE, message = DURATION_MESSAGE)
        @Nullable String duration,
        @DecimalMin(value = "0.1", message = "must be at least {value}") @DecimalMax(value = "20000", message = "must be at most {value}")
        @Nullable Double thenRate,
        @Size(max = MAX_DURATION_LENGTH, message = OrderLimits.AT_MOST_CHARACTERS) @Pattern(regexp = DURATION, flags = Pattern.Flag.CASE_INSENSITIVE, message = DURATION_MESSAGE)
        @Nullable String thenDuration,
        @Min(value = 0, message = "must be at least {value}") @Max(value = RushOptions.MAX_COUNT, message = "must be at most {value}")
        @Nullable Long count,
        @DecimalMin(value = "1", message = "must be at least {value}") @DecimalMax(value = "1000000", message = "must be at most {value}")
        @Nullable Double dashboardCapacity,
        @DecimalMin(value = "1", message = "must be at least {value}") @DecimalMax(value = "100000", message = "must be at most {value}")
        @Nullable Double budgetMb,
        @Min(value = RushOptions.MIN_IN_FLIGHT, message = "must be at least {value}") @Max(value = RushOptions.MAX_IN_FLIGHT, message = "must be at most {value}")
        @Nullable Long maxInFlight,
        @Size(max = MAX_DURATION_LENGTH, message = OrderLimits.AT_MOST_CHARACTERS) @Pattern(regexp = DURATION, flags = Pattern.Flag.CASE_INSENSITIVE, message = DURATION_MESSAGE)
        @Nullable String requestTimeout,
        @Nullable Long seed) {

    /** A duration as {@link Durations#parse} reads it: parts like {@code 1m30s}, or a number of seconds. */
    static final String DURATION = "\\s*(([0-9]+(\\.[0-9]+)?(ms|s|m|h))+|[0-9]+(\\.[0-9]+)?)\\s*";

    static final String DURATION_MESSAGE = "must be a duration like 30s, 2m, 1m30s or 500ms, or seconds";

    static final int MAX_DURATION_LENGTH = 32;

    /**
     * The rush these options ask for, checked as the command line checks its flags: 400 naming the durations that
     * are none (zero), else the first option that cannot be ({@link RushOptions.Invalid}).
     */
    RushOptions options() {
        List<FieldProblem> errors = new ArrayList<>();
        Duration durationAsked = duration("duration", duration, errors);
        Duration thenDurationAsked = duration("thenDuration", thenDuration, errors);
        Duration timeout = duration("requestTimeout", requestTimeout, errors);
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("Bad request", errors);
        }
        return new RushOptions(profile, speed == null ? RushOptions.DEFAULT_SPEED : speed, rate, durationAsked,
                thenRate, thenDurationAsked, count == null ? 0 : count, dashboardCapacity, budgetMb,
                maxInFlight == null ? RushOptions.DEFAULT_MAX_IN_FLIGHT : maxInFlight,
                timeout == null ? RushOptions.DEFAULT_REQUEST_TIMEOUT : timeout, seed);
    }

    private static @Nullable Duration duration(String field, @Nullable String text, List<FieldProblem> errors) {
        if (text == null) {
            return null;
        }
        try {
            return Durations.parse(text);
        }
        catch (IllegalArgumentException ex) {
            errors.add(new FieldProblem(field, ex.getMessage()));
            return null;
        }
    }
}
