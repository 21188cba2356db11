package dev.lunchrush.analyticsdashboard.receiving;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

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
    private final int waitMillis;
    private final JsonMapper json;
    private final Runnable skipped;
    private final RestClient client;

    /**
     * {@code adminPassword}: the job's credential, the stack's admin password, presented as HTTP Basic;
     * {@code http}: a builder of the application's (it is configured here, so a fresh one).
     */
    FeedClient(URI orderService, String adminPassword, int waitMillis, JsonMapper json, Runnable skipped,
            RestClient.Builder http) {
        this.feedUri = URI.create(orderService.toString().replaceAll("/+$", "") + "/feed");
        this.waitMillis = waitMillis;
        this.json = json;
        this.skipped = skipped;
        // the order service holds a pull open for up to waitMillis
        HttpClientSettings settings = new HttpClientSettings(HttpRedirects.DONT_FOLLOW, Duration.ofSeconds(1),
                Duration.ofMillis(waitMillis + 5000L), null);
        this.client = http.requestFactory(ClientHttpRequestFactoryBuilder.jdk().build(settings))
                .baseUrl(orderService.toString().replaceAll("/+$", ""))
                .defaultHeaders(headers -> headers.setBasicAuth(AdminSecurityConfiguration.ADMIN_USER, adminPassword,
                        StandardCharsets.UTF_8))
                .build();
    }

    URI uri() {
        return feedUri;
    }

    /**
     * Asks for at most {@code max} events; the order service holds the request open for up to
     * {@code waitMillis} while its feed is empty. Throws {@link IOException} when the order service does not
     * answer or answers other than 200.
     */
    List<Incoming> pull(int max) throws IOException, InterruptedException {
        URI uri = URI.create(feedUri + "?max=" + max + "&waitMillis=" + waitMillis);
        byte[] body;
        try {
            body = client.get().uri("/feed?max={max}&waitMillis={waitMillis}", max, waitMillis).exchange((request, response) -> {
                if (response.getStatusCode().value() != 200) {
                    throw new IOException("GET " + uri + " answered " + response.getStatusCode().value());
                }
                return response.getBody().readAllBytes();
            }, true);
        }
        catch (RestClientException ex) {
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted pulling " + uri);
            }
            throw ex.getCause() instanceof IOException io ? io : new IOException("GET " + uri + " failed", ex);
        }
        JsonNode array = json.readTree(body);
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
