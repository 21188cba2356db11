package dev.lunchrush.localstack.access;

import tools.jackson.databind.JsonNode;

/** The order service's act as {@code GET /api/act} and {@code PUT /admin/act} answer it. */
public record ActState(String act, String strategy, long capacity) {

    public static ActState of(JsonNode node) {
        return new ActState(ServiceClient.text(node, "act"), ServiceClient.text(node, "strategy"),
                ServiceClient.number(node, "capacity"));
    }
}
