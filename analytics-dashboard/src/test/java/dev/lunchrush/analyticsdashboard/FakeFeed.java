package dev.lunchrush.analyticsdashboard;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpServer;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;

/**
 * The order service's {@code GET /feed} as the dashboard sees it (act 3): hands out at most {@code max}
 * queued events, which leave the feed, and remembers how much was asked for each time.
 */
final class FakeFeed {

    private static final Pattern MAX = Pattern.compile("max=(\\d+)");

    private final HttpServer server;
    private final Queue<OrderEvent> events = new ConcurrentLinkedQueue<>();
    private final List<Integer> asked = new CopyOnWriteArrayList<>();

    FakeFeed() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        server.createContext("/feed", exchange -> {
            Matcher matcher = MAX.matcher(String.valueOf(exchange.getRequestURI().getQuery()));
            int max = matcher.find() ? Integer.parseInt(matcher.group(1)) : 500;
            StringBuilder body = new StringBuilder("[");
            int handed = 0;
            OrderEvent event;
            while (handed < max && (event = events.poll()) != null) {
                body.append(handed++ == 0 ? "" : ",").append(new String(OrderEventCodec.encode(event), StandardCharsets.UTF_8));
            }
            if (handed > 0) {
                asked.add(max);
            }
            byte[] bytes = body.append(']').toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    void add(OrderEvent event) {
        events.add(event);
    }

    int left() {
        return events.size();
    }

    /** The {@code max} of each pull that got events. */
    List<Integer> asked() {
        return List.copyOf(asked);
    }
}
