package dev.lunchrush.load.rush;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.lunchrush.lesson.Snapshot;
import dev.lunchrush.localstack.access.Endpoints;

import static org.assertj.core.api.Assertions.assertThat;

class StackSamplerTests {

    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aBacklogBeforeTheFirstOrderIsAskedForAgainAndTheSecondAnswerKept() throws IOException {
        // the monitor's first answer after a quiet spell: the figures of an earlier rush's last poll
        AtomicInteger asks = new AtomicInteger();
        Endpoints endpoints = stack(() -> asks.incrementAndGet() == 1 ? 68 : 0);
        long started = System.nanoTime();
        try (StackSampler sampler = new StackSampler(endpoints, () -> "secret")) {
            Snapshot base = sampler.base(new DriverCounters());
            assertThat(base.dashboardBacklog()).isZero();
            assertThat(sampler.snapshots()).containsExactly(base);
        }
        assertThat(asks).hasValue(2);
        assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(StackSampler.BASE_REASK.toNanos());
    }

    @Test
    void noBacklogBeforeTheFirstOrderIsAskedForOnce() throws IOException {
        AtomicInteger asks = new AtomicInteger();
        Endpoints endpoints = stack(() -> {
            asks.incrementAndGet();
            return 0;
        });
        try (StackSampler sampler = new StackSampler(endpoints, () -> "secret")) {
            assertThat(sampler.base(new DriverCounters()).dashboardBacklog()).isZero();
            assertThat(sampler.snapshots()).hasSize(1);
        }
        assertThat(asks).hasValue(1);
    }

    /** The order service in the log act, the dashboard, and the monitor with the dashboard's group {@code unread} behind. */
    private Endpoints stack(IntSupplier unread) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/orders/api/stats", exchange -> answer(exchange, """
                {"act":"log","strategy":null,"run":"r1","placed":1200}"""));
        server.createContext("/dashboard/api/stats", exchange -> answer(exchange, """
                {"received":{"kafka":1200},"total":1200,"capacityPerSecond":250}"""));
        server.createContext("/monitor/api/readers", exchange -> answer(exchange, """
                [{"reader":"kafka:analytics-dashboard","kind":"kafka","unread":%d}]""".formatted(unread.getAsInt())));
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        URI nowhere = URI.create(base + "/nowhere");
        return new Endpoints(URI.create(base + "/orders"), nowhere, URI.create(base + "/dashboard"), nowhere,
                URI.create(base + "/monitor"));
    }

    private static void answer(HttpExchange exchange, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        try (var out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static final JsonNode KITCHEN = JsonMapper.builder().build().readTree("""
            {"received":{"kafka":86000,"own-queue":3578,"shared-queue":10971},"total":100549,"missing":5028}
            """);

    @Test
    void inTheSharedQueueActAReaderCountsWhatItGotFromTheSharedQueueOnly() {
        // what is left of act 2 in its own queue is not its share of act 1's queue
        assertThat(StackSampler.received("shared-queue", KITCHEN)).isEqualTo(10_971);
    }

    @Test
    void inTheOtherActsAReaderCountsEverySource() {
        assertThat(StackSampler.received("queue-per-reader", KITCHEN)).isEqualTo(100_549);
        assertThat(StackSampler.received("log", KITCHEN)).isEqualTo(100_549);
    }

    @Test
    void nothingIsCountedWhileTheActOrTheReaderIsUnknown() {
        assertThat(StackSampler.received("", KITCHEN)).isEqualTo(-1);
        assertThat(StackSampler.received("shared-queue", null)).isEqualTo(-1);
    }
}
