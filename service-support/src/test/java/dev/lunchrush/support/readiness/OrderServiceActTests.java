package dev.lunchrush.support.readiness;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.RestClient;

import dev.lunchrush.events.Act;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The act as the order service says it, and what readiness hears when it does not. */
class OrderServiceActTests {

    @Test
    void keepsTheLastActWhileTheOrderServiceFailsOrIsDown() throws Exception {
        AtomicInteger status = new AtomicInteger(200);
        HttpServer orderService = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        orderService.createContext("/api/act", exchange -> {
            byte[] body = "{\"act\": \"log\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status.get(), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        orderService.start();
        URI uri = URI.create("http://127.0.0.1:" + orderService.getAddress().getPort());
        OrderServiceAct act = new OrderServiceAct(uri, RestClient.builder());
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> act.current().isPresent());
            assertThat(act.current()).contains(Act.fromId("log"));
            assertThat(act.check().answer().detail()).endsWith(", act log");

            status.set(503);
            await().atMost(Duration.ofSeconds(30)).until(() -> !act.check().answer().up());
            assertThat(act.check().answer().detail())
                    .isEqualTo("IllegalStateException: " + uri + "/api/act answered 503");
            assertThat(act.current()).contains(Act.fromId("log"));
        }
        finally {
            orderService.stop(0);
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> act.check().answer().detail().startsWith("UncheckedIOException: " + uri + "/api/act does not answer"));
        assertThat(act.check().answer().up()).isFalse();
        assertThat(act.current()).contains(Act.fromId("log"));
    }
}
