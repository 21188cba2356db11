package dev.lunchrush.localstack.access;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import tools.jackson.databind.JsonNode;

/**
 * The order service's HTTP API as the tools use it (the load, the fault suite, the bench, the control room): its act,
 * its stats and where orders go. Orders themselves are sent by each tool's own driver to {@link #orders()}; this
 * client is for the calls around them, over a {@link ServiceClient} and its messages.
 */
public final class OrderServiceClient {

    public static final String NAME = "order-service";

    private final ServiceClient http;

    public OrderServiceClient(ServiceClient http) {
        this.http = http;
    }

    public OrderServiceClient(URI base, Supplier<String> adminPassword) {
        this(new ServiceClient(NAME, base, adminPassword));
    }

    /** The JSON client underneath, for a call this one does not name. */
    public ServiceClient http() {
        return http;
    }

    public URI base() {
        return http.base();
    }

    /** {@code POST /orders}: where a driver sends orders. */
    public URI orders() {
        return Endpoints.resolve(http.base(), "/orders");
    }

    /** {@code POST /orders} of one order (its JSON), once: what it came to, whatever that was. */
    public ServiceClient.Attempt tryPlace(byte[] order) {
        return http.attempt("POST", "/orders", order);
    }

    /** {@code GET /menu}: the service's cheapest endpoint, a reference for what a request costs it. */
    public URI menu() {
        return Endpoints.resolve(http.base(), "/menu");
    }

    /** {@code GET /api/act}. */
    public ActState act() {
        return ActState.of(http.get("/api/act"));
    }

    /** {@code GET /api/act} for a live table: empty when the service does not answer. */
    public Optional<ActState> tryAct(Duration timeout) {
        return http.tryGet("/api/act", timeout).map(ActState::of);
    }

    /** {@code PUT /admin/act} with just the act ({@code log}, {@code shared-queue}, …). */
    public ActState switchAct(String act) {
        return switchAct(Map.of("act", act));
    }

    /** {@code PUT /admin/act} with the act and its settings ({@code strategy}, {@code capacity}). */
    public ActState switchAct(Map<String, ?> request) {
        return ActState.of(http.put("/admin/act", request, true));
    }

    /** {@code GET /api/stats}. */
    public OrderStats stats() {
        return OrderStats.of(http.get("/api/stats"));
    }

    /** {@code GET /api/stats} for a live table: empty when the service does not answer. */
    public Optional<OrderStats> tryStats(Duration timeout) {
        return http.tryGet("/api/stats", timeout).map(OrderStats::of);
    }

    /** The raw answer of {@code GET /api/stats}, for a caller that keeps it as it came (a report's JSON). */
    public Optional<JsonNode> tryStatsJson(Duration timeout) {
        return http.tryGet("/api/stats", timeout);
    }

    /** {@code GET /actuator/prometheus}, its metrics as Prometheus text: empty when the service does not answer. */
    public Optional<String> tryMetrics(Duration timeout) {
        return http.tryGetText("/actuator/prometheus", timeout);
    }
}
