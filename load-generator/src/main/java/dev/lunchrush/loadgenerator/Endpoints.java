package dev.lunchrush.loadgenerator;

import java.net.URI;

/** Where the services answer: localhost ports by default, other hosts with {@code docker compose}. */
public record Endpoints(URI orderService, URI kitchenScreen, URI analyticsDashboard, URI reportReplayer,
        URI backlogMonitor) {

    public static Endpoints localhost() {
        return new Endpoints(URI.create("http://localhost:8080"), URI.create("http://localhost:8081"),
                URI.create("http://localhost:8082"), URI.create("http://localhost:8083"),
                URI.create("http://localhost:8084"));
    }

    /** {@code base} + {@code path}, whether or not the base ends with a slash. */
    public static URI resolve(URI base, String path) {
        String text = base.toString();
        if (text.endsWith("/")) {
            text = text.substring(0, text.length() - 1);
        }
        return URI.create(text + (path.startsWith("/") ? path : "/" + path));
    }
}
