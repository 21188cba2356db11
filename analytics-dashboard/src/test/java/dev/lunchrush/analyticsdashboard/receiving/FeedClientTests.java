package dev.lunchrush.analyticsdashboard.receiving;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** A pull's request, and what the caller is told when the order service refuses it or is down. */
class FeedClientTests {

    @Test
    void pullsWithTheCredentialAndThrowsIoExceptionsWhenRefusedOrDown() throws Exception {
        AtomicReference<String> authorization = new AtomicReference<>();
        AtomicReference<String> query = new AtomicReference<>();
        HttpServer orderService = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        orderService.createContext("/feed", exchange -> {
            authorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
            query.set(exchange.getRequestURI().getQuery());
            byte[] body = "[]".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(query.get().contains("max=7") ? 401 : 200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        orderService.start();
        URI uri = URI.create("http://127.0.0.1:" + orderService.getAddress().getPort());
        FeedClient feed = new FeedClient(uri, "s3cret", 100, JsonMapper.builder().build(), () -> { }, RestClient.builder());
        try {
            assertThat(feed.pull(5)).isEmpty();
            assertThat(query.get()).isEqualTo("max=5&waitMillis=100");
            assertThat(authorization.get()).isEqualTo("Basic "
                    + Base64.getEncoder().encodeToString("admin:s3cret".getBytes(StandardCharsets.UTF_8)));

            assertThatExceptionOfType(IOException.class).isThrownBy(() -> feed.pull(7))
                    .withMessage("GET " + uri + "/feed?max=7&waitMillis=100 answered 401");
        }
        finally {
            orderService.stop(0);
        }
        assertThatExceptionOfType(IOException.class).isThrownBy(() -> feed.pull(5));
    }
}
