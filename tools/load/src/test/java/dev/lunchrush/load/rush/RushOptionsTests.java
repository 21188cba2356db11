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
                .hasMessage("--speed must be positive, not 0");
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
                .hasMessage("dashboardCapacity must be positive, not -1");
        assertThatThrownBy(() -> new RushOptions(null, 1, 10.0, Duration.ofSeconds(1), null, null, 0, null, null, 0,
                Duration.ofSeconds(1), null).settings(RushOptions.Naming.FLAGS, null))
                .hasMessage("--max-in-flight must be positive, not 0");
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

    @Test
    void durationsAreReadAsTheyAreTyped() {
        assertThat(Durations.parse("1m30s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Durations.parse("20")).isEqualTo(Duration.ofSeconds(20));
        assertThatThrownBy(() -> Durations.parse("soon")).hasMessageContaining("is not a duration");
        assertThatThrownBy(() -> Durations.parse("0s")).hasMessageContaining("must be positive");
    }
}
