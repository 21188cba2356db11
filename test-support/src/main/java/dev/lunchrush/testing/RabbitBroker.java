package dev.lunchrush.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import org.jspecify.annotations.Nullable;

import com.rabbitmq.client.ConnectionFactory;

/**
 * A RabbitMQ broker that a test may use, with the virtual host that is the test run's own.
 *
 * @param managementUri its management API (port 15672)
 * @param prometheusUri its own Prometheus exporter (the rabbitmq_prometheus plugin, port 15692)
 */
public record RabbitBroker(String host, int port, String username, String password, String virtualHost,
        URI managementUri, URI prometheusUri) {

    // HTTP/1.1: the management listener closes connections that offer an HTTP/2 upgrade
    private static final HttpClient MANAGEMENT_HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** An AMQP connection factory for this broker and virtual host. */
    public ConnectionFactory connectionFactory() {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(host);
        factory.setPort(port);
        factory.setUsername(username);
        factory.setPassword(password);
        factory.setVirtualHost(virtualHost);
        return factory;
    }

    /**
     * A call of the management API ({@code path} such as {@code /api/queues/<vhost>/<queue>}), as this
     * broker's user; returns the body, and fails on any answer that is not a 2xx.
     */
    public String management(String method, String path, @Nullable String body) {
        HttpRequest request = HttpRequest.newBuilder(managementUri.resolve(path))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Basic " + Base64.getEncoder()
                        .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8)))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            HttpResponse<String> response = MANAGEMENT_HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() >= 300) {
                throw new IllegalStateException("RabbitMQ management " + method + " " + path + " answered "
                        + response.statusCode() + ": " + response.body());
            }
            return response.body();
        }
        catch (IOException ex) {
            throw new IllegalStateException("RabbitMQ management API at " + managementUri + " did not answer", ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
