package dev.lunchrush.analyticsdashboard.receiving;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import dev.lunchrush.analyticsdashboard.DashboardProperties;
import dev.lunchrush.analyticsdashboard.processing.Capacity;
import dev.lunchrush.analyticsdashboard.processing.Incoming;
import dev.lunchrush.analyticsdashboard.processing.OrderProcessor;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderEventFormatException;
import dev.lunchrush.events.Source;

/**
 * Act 3: pulls the order service's in-memory feed ({@code GET /feed}) in a loop, at the job's own
 * pace: it asks for about 200 ms of work, processes it through the capacity, and only then asks
 * again, so it never takes more than its capacity. Outside act 3 the feed answers with nothing, and
 * when the order service is down the loop waits and tries again. What was pulled is gone from the
 * feed: a crash here loses it, which is part of that act's lesson.
 */
@Component
class FeedPuller implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(FeedPuller.class);

    private final DashboardProperties.Feed settings;
    private final URI feedUri;
    private final Capacity capacity;
    private final OrderProcessor processor;
    private final JsonMapper json;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private volatile boolean running;
    private Thread thread;

    FeedPuller(DashboardProperties properties, Capacity capacity, OrderProcessor processor, JsonMapper json) {
        this.settings = properties.feed();
        this.feedUri = URI.create(properties.orderService().url().toString().replaceAll("/+$", "") + "/feed");
        this.capacity = capacity;
        this.processor = processor;
        this.json = json;
    }

    @Override
    public void start() {
        if (!settings.enabled()) {
            return;
        }
        running = true;
        thread = new Thread(this::pullLoop, "feed-puller");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void pullLoop() {
        boolean reachable = true;
        while (running) {
            int max = Math.max(1, Math.min(settings.maxPerRequest(), capacity.perSecond() / 5));
            long started = System.nanoTime();
            try {
                List<Incoming> orders = pull(max);
                if (!reachable) {
                    log.info("order service feed reachable again at {}", feedUri);
                    reachable = true;
                }
                if (orders.isEmpty()) {
                    // outside act 3 the feed answers at once: do not spin
                    long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
                    Thread.sleep(Math.max(0, 500 - elapsedMillis));
                }
                else {
                    processor.process(Source.FEED, orders);
                }
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
            catch (IOException | RuntimeException ex) {
                if (reachable) {
                    log.info("order service feed not reachable at {} ({}); trying again every second", feedUri, ex.toString());
                    reachable = false;
                }
                try {
                    Thread.sleep(1000);
                }
                catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private List<Incoming> pull(int max) throws IOException, InterruptedException {
        URI uri = URI.create(feedUri + "?max=" + max + "&waitMillis=" + settings.waitMillis());
        HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(uri)
                .timeout(Duration.ofMillis(settings.waitMillis() + 5000L)).build(), HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + uri + " answered " + response.statusCode());
        }
        JsonNode array = json.readTree(response.body());
        List<Incoming> orders = new ArrayList<>();
        for (JsonNode node : array) {
            try {
                orders.add(Incoming.of(OrderEventCodec.decode(json.writeValueAsBytes(node))));
            }
            catch (OrderEventFormatException ex) {
                // the feed has no dead-letter queue: count it and go on
                log.warn("skipping an event from the feed that is not an order event: {}", ex.getMessage());
                processor.deadLettered(Source.FEED);
            }
        }
        return orders;
    }
}
