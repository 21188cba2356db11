package dev.lunchrush.testing;

import java.net.URI;

/** A RabbitMQ broker that a test may use, with the virtual host that is the test run's own. */
public record RabbitBroker(String host, int port, String username, String password, String virtualHost,
        URI managementUri) {
}
