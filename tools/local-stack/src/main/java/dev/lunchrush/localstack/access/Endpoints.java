package dev.lunchrush.localstack.access;

import java.net.URI;

/** Where the services answer: localhost ports by default, other hosts with {@code docker compose}. */
public record Endpoints(URI orderService, URI kitchenScreen, URI analyticsDashboard, URI reportReplayer,
        URI backlogMonitor) {

    /** Where the service of this name (the stack manifest's) answers. */
    public URI of(String service) {
        return switch (service) {
            case "order-service" -> orderService;
            case "kitchen-screen" -> kitchenScreen;
            case "analytics-dashboard" -> analyticsDashboard;
            case "report-replayer" -> reportReplayer;
            case "backlog-monitor" -> backlogMonitor;
            default -> throw new IllegalArgumentException("no endpoint for a service named '" + service + "'");
        };
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
