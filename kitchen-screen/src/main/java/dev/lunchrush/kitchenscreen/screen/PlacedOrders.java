package dev.lunchrush.kitchenscreen.screen;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;

import jakarta.annotation.PreDestroy;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Component;

import dev.lunchrush.kitchenscreen.KitchenScreenProperties;

/**
 * How many orders the order service placed, from its {@code GET /api/stats}, polled once a second while
 * somebody looks: a page open or {@code /api/stats} asked within the last {@link #DEMAND_WINDOW_NANOS 5 s}.
 * Nobody looking, the order service is not asked (a request a second to it, and an HTTP client's worth of work
 * here, for a figure nobody reads), and there is no tick either: a look starts the once-a-second poll, which
 * stops itself once nobody looked for 5 s. The first look after a quiet spell gets the last known count, the
 * current one within a second. The order service may be down (in act 3 it is meant to die): the last known count
 * stays.
 */
@Component
class PlacedOrders {

    private static final Logger log = LoggerFactory.getLogger(PlacedOrders.class);

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
    private final URI statsUri;
    private final JsonMapper json;
    static final long DEMAND_WINDOW_NANOS = 5_000_000_000L;

    private final @Nullable TaskScheduler scheduler;
    private final Duration pollInterval;
    private volatile Placed current = new Placed(0, false);
    private volatile long lookedAt = System.nanoTime();
    private @Nullable ScheduledFuture<?> polling;

    /** Without a scheduler: {@link #poll} is called by the caller (tests). */
    PlacedOrders(KitchenScreenProperties properties, JsonMapper json) {
        this(properties, json, null);
    }

    @Autowired
    PlacedOrders(KitchenScreenProperties properties, JsonMapper json, @Nullable TaskScheduler scheduler) {
        this.statsUri = URI.create(properties.orderService().url().toString().replaceAll("/+$", "") + "/api/stats");
        this.json = json;
        this.scheduler = scheduler;
        this.pollInterval = properties.orderService().pollInterval();
        // the start counts as a look: the count is asked for at once, and for the next few seconds
        startPolling();
    }

    record Placed(long placed, boolean reachable) {
    }

    /** The last known count; the order service is polled for the next few seconds. */
    Placed current() {
        lookedAt = System.nanoTime();
        startPolling();
        return current;
    }

    /** Starts the once-a-second poll unless it runs. */
    private synchronized void startPolling() {
        if (scheduler != null && polling == null) {
            polling = scheduler.scheduleWithFixedDelay(this::tick, pollInterval);
        }
    }

    /** The poll's tick: asks the order service, or ends the poll once nobody looked within the window. */
    private void tick() {
        synchronized (this) {
            if (System.nanoTime() - lookedAt > DEMAND_WINDOW_NANOS) {
                if (polling != null) {
                    polling.cancel(false);
                    polling = null;
                }
                return;
            }
        }
        poll();
    }

    /** Whether the poll runs (tests). */
    synchronized boolean polling() {
        return polling != null;
    }

    @PreDestroy
    synchronized void stop() {
        if (polling != null) {
            polling.cancel(false);
            polling = null;
        }
    }

    /** When somebody last looked (tests). */
    void lookedAt(long nanos) {
        lookedAt = nanos;
    }

    /** Asks the order service for its count, if somebody looked within the window. */
    void poll() {
        if (System.nanoTime() - lookedAt > DEMAND_WINDOW_NANOS) {
            return;
        }
        try {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(statsUri).timeout(Duration.ofSeconds(1)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                JsonNode stats = json.readTree(response.body());
                current = new Placed(stats.path("placed").asLong(current.placed()), true);
                return;
            }
        }
        catch (IOException | RuntimeException ex) {
            log.trace("order service not reachable at {}: {}", statsUri, ex.toString());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        current = new Placed(current.placed(), false);
    }
}
