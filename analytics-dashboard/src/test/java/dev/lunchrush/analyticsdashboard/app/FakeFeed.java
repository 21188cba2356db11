package dev.lunchrush.analyticsdashboard.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpServer;

import dev.lunchrush.analyticsdashboard.receiving.FeedStub;
import dev.lunchrush.events.OrderEvent;

/**
 * The order service's {@code GET /feed} as the dashboard sees it (act 3): hands out at most {@code max}
 * queued events, which leave the feed, and remembers how much was asked for each time.
 */
final class FakeFeed {

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
        server.createContext("/feed", exchange -> FeedStub.handOut(exchange, events, asked::add));
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
