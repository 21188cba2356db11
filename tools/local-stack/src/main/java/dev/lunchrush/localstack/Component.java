package dev.lunchrush.localstack;

import java.time.Instant;

/** One piece of the local stack: a broker, Prometheus or a service. */
interface Component {

    String name();

    /** Starts it when it is not running already; returns without waiting for it to be healthy. */
    void start();

    /** Waits until it is healthy or the deadline passed, and says how it ended. */
    Row await(Instant deadline);

    /** How it is now, without changing anything. */
    Row status();

    /** Stops it if {@code up} started it; says what happened. */
    String stop();
}
