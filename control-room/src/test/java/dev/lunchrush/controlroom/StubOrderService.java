package dev.lunchrush.controlroom;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * An order service for the control room's tests, on 127.0.0.1: its menu, a 201 for every order (counted), its
 * {@code /api/stats} (the orders placed so far, in the log act), and its act (what {@code PUT /admin/act} answers). The other services are left down.
 */
final class StubOrderService {

    private final HttpServer server;
    private final AtomicInteger orders = new AtomicInteger();

    StubOrderService() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        server.createContext("/menu", exchange -> answer(exchange, 200,
                "{\"kitchens\":[{\"id\":\"k1\",\"name\":\"Noodles\",\"dishes\":[\"pad-thai\"]}]}"));
        server.createContext("/orders", exchange -> {
            exchange.getRequestBody().readAllBytes();
            answer(exchange, 201, "{\"orderId\":\"o-" + orders.incrementAndGet() + "\"}");
        });
        server.createContext("/api/stats", exchange -> answer(exchange, 200, """
                {"act":"log","strategy":"unbounded","capacity":10000,"run":"stub","placed":%d,
                 "feed":{"buffered":0,"bufferedBytes":0,"delivered":0,"dropped":0,"rejected":0,"accepted":0},
                 "heap":{"usedBytes":50000000,"usedAfterGcBytes":20000000,"maxBytes":140000000,"oldGenerationMaxBytes":120000000}}"""
                .formatted(orders.get())));
        server.createContext("/admin/act", exchange -> {
            exchange.getRequestBody().readAllBytes();
            answer(exchange, 200, "{\"act\":\"memory-feed\",\"strategy\":\"unbounded\",\"capacity\":20000}");
        });
        server.start();
    }

    /**
     * The control room's stack for a test: this stub as the order service, and every other service and tool down
     * (nothing listens on port 9, discard, here).
     */
    void register(DynamicPropertyRegistry registry) {
        registry.add("lunchrush.order-service-url", this::url);
        for (String service : new String[] {"kitchen-screen", "analytics-dashboard", "report-replayer", "backlog-monitor"}) {
            registry.add("lunchrush." + service + "-url", () -> "http://127.0.0.1:9");
        }
        for (String tool : new String[] {"prometheus", "grafana", "kafka-ui"}) {
            registry.add("lunchrush." + tool + "-url", () -> "http://127.0.0.1:9");
        }
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The orders it answered 201 so far. */
    int orders() {
        return orders.get();
    }

    void stop() {
        server.stop(0);
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
