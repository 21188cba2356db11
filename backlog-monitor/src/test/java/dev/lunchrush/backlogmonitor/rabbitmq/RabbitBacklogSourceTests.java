package dev.lunchrush.backlogmonitor.rabbitmq;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.amqp.autoconfigure.RabbitProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.web.client.RestClient;

import dev.lunchrush.backlogmonitor.BacklogProperties;
import dev.lunchrush.backlogmonitor.RabbitManagementProperties;
import dev.lunchrush.backlogmonitor.readers.ReaderBacklog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** The management API's request, its answer as backlogs, and what a poll says when the API refuses or is down. */
class RabbitBacklogSourceTests {

    @Test
    void readsTheQueuesAndThrowsIoExceptionsWhenTheManagementApiRefusesOrIsDown() throws Exception {
        AtomicInteger status = new AtomicInteger(200);
        AtomicReference<String> authorization = new AtomicReference<>();
        AtomicReference<String> path = new AtomicReference<>();
        HttpServer management = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        management.createContext("/api/queues", exchange -> {
            authorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
            path.set(exchange.getRequestURI().getRawPath());
            byte[] body = "[{\"name\":\"kitchen\",\"messages\":3,\"messages_ready\":2,\"messages_unacknowledged\":1}]"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status.get(), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        management.start();
        BacklogProperties properties = new Binder(new MapConfigurationPropertySource(
                Map.of("lunchrush.rabbitmq.queues", "kitchen,absent"))).bindOrCreate("lunchrush", BacklogProperties.class);
        RabbitProperties rabbit = new RabbitProperties();
        rabbit.setUsername("watcher");
        rabbit.setPassword("s3cret");
        RabbitBacklogSource source = new RabbitBacklogSource(properties, new RabbitManagementProperties(
                URI.create("http://127.0.0.1:" + management.getAddress().getPort())), rabbit, RestClient.builder());
        try {
            assertThat(source.poll()).extracting(ReaderBacklog::reader).containsExactly("rabbitmq:kitchen");
            assertThat(path.get()).isEqualTo("/api/queues/%2F");
            assertThat(authorization.get()).isEqualTo("Basic "
                    + Base64.getEncoder().encodeToString("watcher:s3cret".getBytes(StandardCharsets.UTF_8)));

            status.set(404);
            assertThat(source.poll()).as("no such virtual host").isEmpty();

            status.set(500);
            assertThatExceptionOfType(IOException.class).isThrownBy(source::poll)
                    .withMessage("RabbitMQ management answered 500 for the queues");
        }
        finally {
            management.stop(0);
        }
        assertThatExceptionOfType(IOException.class).isThrownBy(source::poll);
    }
}
