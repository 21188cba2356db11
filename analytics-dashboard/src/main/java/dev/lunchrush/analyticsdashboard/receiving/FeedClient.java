package dev.lunchrush.analyticsdashboard.receiving;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.lunchrush.analyticsdashboard.processing.Incoming;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderEventFormatException;
import dev.lunchrush.support.AdminSecurityConfiguration;

/**
 * One {@code GET /feed?max=&waitMillis=} to the order service with the job's credential (HTTP Basic as admin),
 * answered as orders. The feed hands out
 * what it answers with for good: once {@link #pull} has returned, its orders exist only in the caller.
 * An event that is not an order event is skipped and reported to {@code skipped} (the feed has no
 * dead-letter queue).
 */
final class FeedClient {

    private static final Logger log = LoggerFactory.getLogger(FeedClient.class);

    private final URI feedUri;
    private final String credential;
    private final int waitMillis;
    private final JsonMapper json;
    private final Runnable skipped;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    /** {@code adminPassword}: the job's credential, the stack's admin password, presented as HTTP Basic. */
    FeedClient(URI orderService, String adminPassword, int waitMillis, JsonMapper json, Runnable skipped) {
        this.feedUri = URI.create(orderService.toString().replaceAll("/+$", "") + "/feed");
        this.credential = "Basic " + Base64.getEncoder().encodeToString(
                (AdminSecurityConfiguration.ADMIN_USER + ":" + adminPassword).getBytes(StandardCharsets.UTF_8));
        this.waitMillis = waitMillis;
        this.json = json;
        this.skipped = skipped;
    }

    URI uri() {
        return feedUri;
    }

    /**
     * Asks for at most {@code max} events; the order service holds the request open for up to
     * {@code waitMillis} while its feed is empty.
     */
    List<Incoming> pull(int max) throws IOException, InterruptedException {
        URI uri = URI.create(feedUri + "?max=" + max + "&waitMillis=" + waitMillis);
        HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(uri)
                .header("Authorization", credential)
                .timeout(Duration.ofMillis(waitMillis + 5000L)).build(), HttpResponse.BodyHandlers.ofByteArray());
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
                log.warn("skipping an event from the feed that is not an order event: {}", ex.getMessage());
                skipped.run();
            }
        }
        return orders;
    }
}
