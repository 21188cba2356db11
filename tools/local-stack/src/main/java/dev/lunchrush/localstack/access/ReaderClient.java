package dev.lunchrush.localstack.access;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A reader's HTTP API as the tools use it (the kitchen screen, the analytics dashboard): its stats and, for the
 * dashboard, its processing capacity. Over a {@link ServiceClient} and its messages.
 */
public final class ReaderClient {

    private final ServiceClient http;

    public ReaderClient(ServiceClient http) {
        this.http = http;
    }

    public ReaderClient(String name, URI base, Supplier<String> adminPassword) {
        this(new ServiceClient(name, base, adminPassword));
    }

    /** The JSON client underneath, for a call this one does not name. */
    public ServiceClient http() {
        return http;
    }

    public String name() {
        return http.name();
    }

    public URI base() {
        return http.base();
    }

    /** {@code GET /api/stats}. */
    public ReaderStats stats() {
        return ReaderStats.of(http.get("/api/stats"));
    }

    /** {@code GET /api/stats} for a live table: empty when the reader does not answer. */
    public Optional<ReaderStats> tryStats(Duration timeout) {
        return http.tryGet("/api/stats", timeout).map(ReaderStats::of);
    }

    /** The dashboard's {@code PUT /admin/capacity}: events it processes a second. */
    public void setCapacity(long eventsPerSecond) {
        http.put("/admin/capacity", Map.of("eventsPerSecond", eventsPerSecond), true);
    }
}
