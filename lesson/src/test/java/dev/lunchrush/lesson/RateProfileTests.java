package dev.lunchrush.lesson;

import java.time.Duration;
import java.time.LocalTime;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RateProfileTests {

    @Test
    void lunchAtSpeedOneIsTheLesson() {
        RateProfile lunch = RateProfile.lunch(1);
        assertThat(lunch.segments()).hasSize(2);
        assertThat(lunch.segments().get(0).ratePerSecond()).isEqualTo(400.0);
        assertThat(lunch.segments().get(0).duration()).isEqualTo(Duration.ofMinutes(15));
        assertThat(lunch.segments().get(1).ratePerSecond()).isEqualTo(100.0);
        assertThat(lunch.segments().get(1).duration()).isEqualTo(Duration.ofMinutes(15));
        assertThat(lunch.totalOrders()).isEqualTo(400 * 900 + 100 * 900);
        assertThat(lunch.simulatedTime(Duration.ZERO)).isEqualTo(LocalTime.of(12, 20));
        assertThat(lunch.simulatedTime(Duration.ofMinutes(15))).isEqualTo(LocalTime.of(12, 35));
        assertThat(lunch.simulatedTime(lunch.totalDuration())).isEqualTo(LocalTime.of(12, 50));
    }

    @Test
    void speedNMultipliesRatesDividesDurationsAndKeepsTheClock() {
        RateProfile lunch = RateProfile.lunch(10);
        assertThat(lunch.segments().get(0).ratePerSecond()).isEqualTo(4_000.0);
        assertThat(lunch.segments().get(0).duration()).isEqualTo(Duration.ofSeconds(90));
        assertThat(lunch.segments().get(1).ratePerSecond()).isEqualTo(1_000.0);
        assertThat(lunch.segments().get(1).duration()).isEqualTo(Duration.ofSeconds(90));
        // the same number of orders as the lesson: only time is compressed
        assertThat(lunch.totalOrders()).isEqualTo(RateProfile.lunch(1).totalOrders());
        assertThat(lunch.simulatedTime(Duration.ofSeconds(90))).isEqualTo(LocalTime.of(12, 35));
        assertThat(lunch.clock(Duration.ofSeconds(180))).isEqualTo("12:50:00");
    }

    @Test
    void speedThreeDividesDurationsToTheNanosecond() {
        RateProfile lunch = RateProfile.lunch(3);
        assertThat(lunch.segments().get(0).duration()).isEqualTo(Duration.ofSeconds(300));
        assertThat(lunch.segments().get(0).ratePerSecond()).isEqualTo(1_200.0);
    }

    @Test
    void rateAtFollowsTheSegmentsAndIsZeroAfterTheEnd() {
        RateProfile step = RateProfile.twoSteps("step", 100, Duration.ofSeconds(30), 400, Duration.ofSeconds(10), 1);
        assertThat(step.rateAt(Duration.ofSeconds(0))).isEqualTo(100.0);
        assertThat(step.rateAt(Duration.ofSeconds(29))).isEqualTo(100.0);
        assertThat(step.rateAt(Duration.ofSeconds(30))).isEqualTo(400.0);
        assertThat(step.rateAt(Duration.ofSeconds(40))).isZero();
        assertThat(step.offset(1)).isEqualTo(Duration.ofSeconds(30));
        assertThat(step.totalOrders()).isEqualTo(3_000 + 4_000);
    }

    @Test
    void constantAtSpeedTwo() {
        RateProfile constant = RateProfile.constant(50, Duration.ofMinutes(2), 2);
        assertThat(constant.segments().get(0).ratePerSecond()).isEqualTo(100.0);
        assertThat(constant.totalDuration()).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void rejectsNonsense() {
        assertThatIllegalArgumentException().isThrownBy(() -> RateProfile.lunch(0));
        assertThatIllegalArgumentException().isThrownBy(() -> RateProfile.constant(-1, Duration.ofSeconds(1), 1));
    }
}
