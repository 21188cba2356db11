package dev.lunchrush.kitchenscreen.screen;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;

import jakarta.annotation.PreDestroy;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.http.MediaType;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

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

    private final RestClient client;
    private final URI statsUri;
    private final JsonMapper json;
    static final long DEMAND_WINDOW_NANOS = 5_000_000_000L;

    private final @Nullable TaskScheduler scheduler;
    private final Duration pollInterval;
    private volatile Placed current = new Placed(0, false);
    private volatile long lookedAt = System.nanoTime();
    private @Nullable ScheduledFuture<?> polling;

    /** Without a scheduler: {@link #poll} is called by the caller (tests). */
    PlacedOrders(KitchenScreenProperties properties, JsonMapper json, RestClient.Builder http) {
        this(properties, json, http, null);
    }

    /** {@code http}: a builder of the application's (it is configured here, so a fresh one). */
    @Autowired
    PlacedOrders(KitchenScreenProperties properties, JsonMapper json, RestClient.Builder http,
            @Nullable TaskScheduler scheduler) {
        String orderService = properties.orderService().url().toString().replaceAll("/+$", "");
        this.statsUri = URI.create(orderService + "/api/stats");
        this.client = http.requestFactory(ClientHttpRequestFactoryBuilder.jdk().build(new HttpClientSettings(
                HttpRedirects.DONT_FOLLOW, Duration.ofMillis(500), Duration.ofSeconds(1), null)))
                .baseUrl(orderService)
                .build();
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
            byte[] body = client.get().uri("/api/stats").accept(MediaType.APPLICATION_JSON).exchange(
                    (request, response) -> response.getStatusCode().value() == 200 ? response.getBody().readAllBytes() : null,
                    true);
            if (body != null) {
                JsonNode stats = json.readTree(body);
                current = new Placed(stats.path("placed").asLong(current.placed()), true);
                return;
            }
        }
        catch (RuntimeException ex) {
            // an interrupt while asking keeps the thread's interrupt flag set
            log.trace("order service not reachable at {}: {}", statsUri, ex.toString());
        }
        current = new Placed(current.placed(), false);
    }
}
