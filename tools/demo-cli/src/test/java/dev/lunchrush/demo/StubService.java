package dev.lunchrush.demo;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

import com.sun.net.httpserver.HttpServer;

/** A tiny HTTP server on a free loopback port that records every request and answers as told. */
public final class StubService implements AutoCloseable {

    /** A request as received; {@code idempotencyKey} is "null" when it had none. */
    public record Request(String method, String path, String authorization, String body, String idempotencyKey) {
    }

    public record Answer(int status, String body, Map<String, String> headers) {

        public Answer(int status, String body) {
            this(status, body, Map.of());
        }
    }

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(4);
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    public StubService(Function<Request, Answer> answer) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(threads);
        server.createContext("/", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                String query = exchange.getRequestURI().getRawQuery();
                Request request = new Request(exchange.getRequestMethod(),
                        exchange.getRequestURI().getPath() + (query == null ? "" : "?" + query),
                        String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")),
                        new String(in.readAllBytes(), StandardCharsets.UTF_8),
                        String.valueOf(exchange.getRequestHeaders().getFirst("Idempotency-Key")));
                requests.add(request);
                Answer decision = answer.apply(request);
                byte[] body = decision.body().getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                decision.headers().forEach(exchange.getResponseHeaders()::add);
                exchange.sendResponseHeaders(decision.status(), body.length == 0 ? -1 : body.length);
                if (body.length > 0) {
                    exchange.getResponseBody().write(body);
                }
            }
            finally {
                exchange.close();
            }
        });
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
