package dev.lunchrush.localstack.access;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * A reader's {@code GET /api/stats} (the kitchen screen's, the dashboard's), read once for every tool: the orders
 * received per source and in all, the dead-lettered and the ignored duplicates (0 where the answer lacks them), and
 * what only one of them reports, -1 where the answer lacks it ({@code missing}: the kitchen screen's;
 * {@code capacityPerSecond}: the dashboard's).
 */
public record ReaderStats(Map<String, Long> received, long total, long deadLettered, long duplicatesIgnored, long missing,
        double capacityPerSecond) {

    public ReaderStats {
        received = Collections.unmodifiableMap(new LinkedHashMap<>(received));
    }

    /** The orders received from one source ({@code dev.lunchrush.events.Source}), 0 when none. */
    public long received(String source) {
        return received.getOrDefault(source, 0L);
    }

    public static ReaderStats of(JsonNode node) {
        Map<String, Long> received = new LinkedHashMap<>();
        node.path("received").properties().forEach(entry -> received.put(entry.getKey(), entry.getValue().asLong()));
        return new ReaderStats(received, ServiceClient.number(node, "total"), ServiceClient.number(node, "deadLettered"),
                ServiceClient.number(node, "duplicatesIgnored"),
                node.has("missing") ? node.path("missing").asLong() : -1,
                node.has("capacityPerSecond") ? node.path("capacityPerSecond").asDouble() : -1);
    }
}
