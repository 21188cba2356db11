package dev.lunchrush.scenarios;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A scenario whose claims are counts, contents and alerts, never rates or shares of the machine: it spends most of
 * its time waiting (for a restart, a broker, an alert's timer), and it holds as well with other scenarios running
 * on the same cores. {@code scenario-tests}' pom runs these three at a time, each in a JVM of its own (its own
 * Kafka, its own RabbitMQ virtual host, its services on free ports), after the others, which run one at a time
 * because they measure rates, shares, latencies or a death's time.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(SideBySide.TAG)
public @interface SideBySide {

    String TAG = "side-by-side";
}
