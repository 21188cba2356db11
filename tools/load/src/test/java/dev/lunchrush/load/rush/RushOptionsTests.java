package dev.lunchrush.load.rush;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One set of rules for the rush's options: the command line's messages name its flags, JSON's its fields. */
class RushOptionsTests {

    private static RushOptions options(String profile, double speed, Double rate, Duration duration, Double thenRate,
            Duration thenDuration, long count) {
        return new RushOptions(profile, speed, rate, duration, thenRate, thenDuration, count, null, null,
                RushOptions.DEFAULT_MAX_IN_FLIGHT, RushOptions.DEFAULT_REQUEST_TIMEOUT, null);
    }

    @Test
    void theCommandLinesMessagesNameItsFlags() {
        assertThatThrownBy(() -> options(null, 0, null, null, null, null, 0).profile(RushOptions.Naming.FLAGS))
                .hasMessage("--speed must be between 0.1 and 100, not 0");
        assertThatThrownBy(() -> options("lunch", 1, 100.0, null, null, null, 0).profile(RushOptions.Naming.FLAGS))
                .hasMessage("the lunch profile has its own rates and durations; use --speed N, or --profile "
                        + "constant/custom with --rate and --duration");
        assertThatThrownBy(() -> options("constant", 1, 100.0, null, null, null, 0).profile(RushOptions.Naming.FLAGS))
                .hasMessage("the constant profile needs --duration D (like 30s or 2m) or --count N");
        assertThatThrownBy(() -> options("custom", 1, 100.0, Duration.ofSeconds(1), null, null, 0)
                .profile(RushOptions.Naming.FLAGS))
                .hasMessage("the custom profile needs --rate, --duration, --then-rate and --then-duration");
        assertThatThrownBy(() -> options("brunch", 1, null, null, null, null, 0).profile(RushOptions.Naming.FLAGS))
                .hasMessage("unknown profile 'brunch'; profiles are lunch, constant, step, custom");
    }

    @Test
    void jsonsMessagesNameTheFieldToBlame() {
        assertThatThrownBy(() -> options("custom", 1, 100.0, Duration.ofSeconds(1), null, null, 0)
                .profile(RushOptions.Naming.FIELDS))
                .isInstanceOfSatisfying(RushOptions.Invalid.class, ex -> assertThat(ex.field()).isEqualTo("thenRate"))
                .hasMessage("the custom profile needs rate, duration, thenRate and thenDuration");
        assertThatThrownBy(() -> options(null, 1, -5.0, Duration.ofSeconds(1), null, null, 0).profile(RushOptions.Naming.FIELDS))
                .isInstanceOfSatisfying(RushOptions.Invalid.class, ex -> assertThat(ex.field()).isEqualTo("rate"));
        assertThatThrownBy(() -> new RushOptions(null, 1, 10.0, Duration.ofSeconds(1), null, null, 0, -1.0, null, 10,
                Duration.ofSeconds(1), null).settings(RushOptions.Naming.FIELDS, null))
                .isInstanceOfSatisfying(RushOptions.Invalid.class, ex -> assertThat(ex.field()).isEqualTo("dashboardCapacity"))
                .hasMessage("dashboardCapacity must be between 1 and 1,000,000 events/s, not -1");
        assertThatThrownBy(() -> new RushOptions(null, 1, 10.0, Duration.ofSeconds(1), null, null, 0, null, null, 0,
                Duration.ofSeconds(1), null).settings(RushOptions.Naming.FLAGS, null))
                .hasMessage("--max-in-flight must be between 1 and 100,000, not 0");
    }

    @Test
    void theProfileIsInferredAsTheCommandLineAlwaysDid() {
        assertThat(options(null, 3, null, null, null, null, 0).profile(RushOptions.Naming.FIELDS).name()).isEqualTo("lunch");
        assertThat(options(null, 1, 50.0, Duration.ofSeconds(20), null, null, 0).profile(RushOptions.Naming.FIELDS))
                .satisfies(profile -> {
                    assertThat(profile.name()).isEqualTo("constant");
                    assertThat(profile.totalOrders()).isEqualTo(1000);
                });
        assertThat(options(null, 1, 50.0, Duration.ofSeconds(20), 10.0, Duration.ofSeconds(5), 0)
                .profile(RushOptions.Naming.FIELDS).name()).isEqualTo("custom");
    }

    /** Every numeric and duration option within its bounds, and the rush as it runs: a day at most, rates one driver sends. */
    @Test
    void everyOptionHasBoundsAndTheMessageNamesIt() {
        Duration second = Duration.ofSeconds(1);
        Duration timeout = RushOptions.DEFAULT_REQUEST_TIMEOUT;
        assertBlames(new RushOptions(null, 101, null, null, null, null, 0, null, null, 10, timeout, null),
                "speed", "--speed must be between 0.1 and 100, not 101");
        assertBlames(new RushOptions(null, 0.05, null, null, null, null, 0, null, null, 10, timeout, null),
                "speed", "--speed must be between 0.1 and 100, not 0.05");
        assertBlames(new RushOptions(null, 1, 20_001.0, second, null, null, 0, null, null, 10, timeout, null),
                "rate", "--rate must be between 0.1 and 20,000 orders/s, not 20,001");
        assertBlames(new RushOptions(null, 1, Double.POSITIVE_INFINITY, second, null, null, 0, null, null, 10, timeout, null),
                "rate", "--rate must be between 0.1 and 20,000 orders/s, not Infinity");
        assertBlames(new RushOptions(null, 1, 0.01, second, null, null, 0, null, null, 10, timeout, null),
                "rate", "--rate must be between 0.1 and 20,000 orders/s, not 0.01");
        assertBlames(new RushOptions(null, 1, 10.0, second, 1e9, second, 0, null, null, 10, timeout, null),
                "thenRate", "--then-rate must be between 0.1 and 20,000 orders/s, not 1,000,000,000");
        // about 342 years: past what a Duration's nanoseconds hold (292 years), once a 500
        assertBlames(new RushOptions(null, 1, 10.0, Durations.parse("3000000h"), null, null, 0, null, null, 10, timeout, null),
                "duration", "--duration must be between 1s and 24h, not 3000000h");
        assertBlames(new RushOptions(null, 1, 10.0, Duration.ofMillis(500), null, null, 0, null, null, 10, timeout, null),
                "duration", "--duration must be between 1s and 24h, not 500ms");
        assertBlames(new RushOptions(null, 1, 10.0, second, 10.0, Duration.ofHours(25), 0, null, null, 10, timeout, null),
                "thenDuration", "--then-duration must be between 1s and 24h, not 25h");
        assertBlames(new RushOptions(null, 1, 10.0, second, null, null, 100_000_001, null, null, 10, timeout, null),
                "count", "--count must be between 0 and 100,000,000 orders (0: no limit), not 100,000,001");
        assertBlames(new RushOptions(null, 1, 10.0, second, null, null, 0, 2_000_000.0, null, 10, timeout, null),
                "dashboardCapacity", "--dashboard-capacity must be between 1 and 1,000,000 events/s, not 2,000,000");
        assertBlames(new RushOptions(null, 1, 10.0, second, null, null, 0, null, 0.5, 10, timeout, null),
                "budgetMb", "--budget-mb must be between 1 and 100,000 MB, not 0.5");
        assertBlames(new RushOptions(null, 1, 10.0, second, null, null, 0, null, 1e12, 10, timeout, null),
                "budgetMb", "--budget-mb must be between 1 and 100,000 MB, not 1,000,000,000,000");
        assertBlames(new RushOptions(null, 1, 10.0, second, null, null, 0, null, null, 100_001, timeout, null),
                "maxInFlight", "--max-in-flight must be between 1 and 100,000, not 100,001");
        assertBlames(new RushOptions(null, 1, 10.0, second, null, null, 0, null, null, 10, Duration.ofMillis(50), null),
                "requestTimeout", "--request-timeout must be between 100ms and 5m, not 50ms");
        assertBlames(new RushOptions(null, 1, 10.0, second, null, null, 0, null, null, 10, Duration.ofMinutes(6), null),
                "requestTimeout", "--request-timeout must be between 100ms and 5m, not 6m");
    }

    @Test
    void theRushAsItRunsIsBoundedTooAndTheOptionThatTookItPastIsBlamed() {
        Duration timeout = RushOptions.DEFAULT_REQUEST_TIMEOUT;
        assertBlames(new RushOptions(null, 2, 15_000.0, Duration.ofSeconds(10), null, null, 0, null, null, 10, timeout, null),
                "speed", "--speed: the rush would send 30,000 orders/s at --speed 2; at most 20,000 orders/s");
        assertBlames(new RushOptions("lunch", 60, null, null, null, null, 0, null, null, 10, timeout, null),
                "speed", "--speed: the rush would send 24,000 orders/s at --speed 60; at most 20,000 orders/s");
        // the step profile's then-rate is four times its rate
        assertBlames(new RushOptions("step", 1, 10_000.0, null, null, null, 0, null, null, 10, timeout, null),
                "rate", "--rate: the rush would send 40,000 orders/s at --speed 1; at most 20,000 orders/s");
        assertBlames(new RushOptions(null, 1, 10.0, Duration.ofHours(20), 10.0, Duration.ofHours(5), 0, null, null, 10, timeout, null),
                "thenDuration", "--then-duration: the rush would last 25h at --speed 1; a rush lasts at most 24h");
        assertBlames(new RushOptions(null, 0.5, 10.0, Duration.ofHours(20), null, null, 0, null, null, 10, timeout, null),
                "speed", "--speed: the rush would last 40h at --speed 0.5; a rush lasts at most 24h");
        assertBlames(new RushOptions("constant", 1, 1.0, null, null, null, 100_000, null, null, 10, timeout, null),
                "count", "--count: the rush would last 27h46m40s at --speed 1; a rush lasts at most 24h");
        // at the bounds themselves, a rush
        assertThat(new RushOptions(null, 1, 20_000.0, Duration.ofHours(24), null, null, 0, 1_000_000.0, 100_000.0, 100_000,
                Duration.ofMinutes(5), null).settings(RushOptions.Naming.FIELDS, null).profile().totalOrders())
                .isEqualTo(20_000L * 86_400);
        assertThat(new RushOptions("lunch", 50, null, null, null, null, 0, null, null, 1, Duration.ofMillis(100), null)
                .settings(RushOptions.Naming.FIELDS, null).maxInFlight()).isEqualTo(1);
    }

    /** The option named on the command line (its flag) and in JSON (its field), with the same sentence. */
    private static void assertBlames(RushOptions options, String field, String flagsMessage) {
        assertThatThrownBy(() -> options.settings(RushOptions.Naming.FLAGS, null))
                .isInstanceOfSatisfying(RushOptions.Invalid.class, ex -> assertThat(ex.field()).isEqualTo(field))
                .hasMessage(flagsMessage);
        String fieldsMessage = flagsMessage.replace(RushOptions.Naming.FLAGS.of(field), field).replace("--speed", "speed");
        assertThatThrownBy(() -> options.settings(RushOptions.Naming.FIELDS, null))
                .isInstanceOfSatisfying(RushOptions.Invalid.class, ex -> assertThat(ex.field()).isEqualTo(field))
                .hasMessage(fieldsMessage);
    }

    @Test
    void durationsAreReadAsTheyAreTyped() {
        assertThat(Durations.parse("1m30s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Durations.parse("20")).isEqualTo(Duration.ofSeconds(20));
        assertThatThrownBy(() -> Durations.parse("soon")).hasMessageContaining("is not a duration");
        assertThatThrownBy(() -> Durations.parse("0s")).hasMessageContaining("must be positive");
        // too long for a long's milliseconds, in parts: the longest Duration of milliseconds, not a wrap to negative
        assertThat(Durations.parse("99999999999999999999h1h")).isEqualTo(Duration.ofMillis(Long.MAX_VALUE));
        assertThat(Durations.format(Duration.ofSeconds(90))).isEqualTo("1m30s");
        assertThat(Durations.format(Duration.ofMillis(100))).isEqualTo("100ms");
        assertThat(Durations.format(Duration.ofDays(1))).isEqualTo("24h");
    }
}
