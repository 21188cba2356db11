package dev.lunchrush.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpServer;

/**
 * The order service's {@code GET /api/act} and nothing else, on 127.0.0.1: it answers the act last {@link #answer
 * set} ({@code {"act": "log"}}), or 503 while none is set, as the order service does before it knows its act. For
 * the readers' tests of what they do in each act, without the order service.
 */
public final class OrderServiceActStub implements AutoCloseable {

    private final HttpServer server;
    private volatile String act = "";

    public OrderServiceActStub() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        server.createContext("/api/act", exchange -> {
            String current = act;
            byte[] body = ("{\"act\": \"" + current + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(current.isEmpty() ? 503 : 200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    /** The act's id from now on; empty: the order service does not know its act yet (503). */
    public void answer(String act) {
        this.act = act;
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
