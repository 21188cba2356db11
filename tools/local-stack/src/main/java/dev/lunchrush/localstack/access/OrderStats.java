package dev.lunchrush.localstack.access;

import tools.jackson.databind.JsonNode;

/**
 * The order service's {@code GET /api/stats}, read once for every tool: the act and its run, the orders placed,
 * the in-memory feed's counts and the heap. A field the answer lacks reads as empty text or 0.
 */
public record OrderStats(String act, String strategy, String run, long placed, Feed feed, Heap heap) {

    /** The in-memory feed (act 3): events held, their bytes, and what became of the others. */
    public record Feed(long buffered, long bufferedBytes, long delivered, long dropped, long rejected) {
    }

    /** The order service's heap, in bytes. */
    public record Heap(long usedBytes, long usedAfterGcBytes, long maxBytes, long oldGenerationMaxBytes) {
    }

    public static OrderStats of(JsonNode node) {
        JsonNode feed = node.path("feed");
        JsonNode heap = node.path("heap");
        return new OrderStats(ServiceClient.text(node, "act"), ServiceClient.text(node, "strategy"),
                ServiceClient.text(node, "run"), ServiceClient.number(node, "placed"),
                new Feed(ServiceClient.number(feed, "buffered"), ServiceClient.number(feed, "bufferedBytes"),
                        ServiceClient.number(feed, "delivered"), ServiceClient.number(feed, "dropped"),
                        ServiceClient.number(feed, "rejected")),
                new Heap(ServiceClient.number(heap, "usedBytes"), ServiceClient.number(heap, "usedAfterGcBytes"),
                        ServiceClient.number(heap, "maxBytes"), ServiceClient.number(heap, "oldGenerationMaxBytes")));
    }
}
