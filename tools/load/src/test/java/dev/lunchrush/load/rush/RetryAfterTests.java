package dev.lunchrush.load.rush;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RetryAfterTests {

    @Test
    void readsRetryAfterInSecondsOrAsADate() {
        assertThat(RetryAfter.of(Optional.of("2"))).isEqualTo(Duration.ofSeconds(2));
        assertThat(RetryAfter.of(Optional.of("0.25"))).isEqualTo(Duration.ofMillis(250));
        assertThat(RetryAfter.of(Optional.empty())).isEqualTo(Duration.ofSeconds(1));
        assertThat(RetryAfter.of(Optional.of("soon"))).isEqualTo(Duration.ofSeconds(1));
        assertThat(RetryAfter.of(Optional.of("3600"))).isEqualTo(Duration.ofSeconds(30));
        assertThat(RetryAfter.of(Optional.of("Wed, 21 Oct 2015 07:28:00 GMT"))).isEqualTo(Duration.ZERO);
    }
}
