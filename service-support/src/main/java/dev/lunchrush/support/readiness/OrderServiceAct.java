package dev.lunchrush.support.readiness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

import dev.lunchrush.events.Act;

/**
 * The act, as a reader learns it: the order service's {@code GET /api/act}, asked when readiness is (at most every
 * {@link SourceCheck#FRESH}). The last act it said is kept while it does not answer (in act 3 it is meant to die):
 * a reader goes on needing what it needed.
 */
public final class OrderServiceAct {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final RestClient client;
    private final URI actUri;
    private final SourceCheck check;
    private volatile @Nullable Act known;

    /** {@code http}: a builder of the application's (it is configured here, so a fresh one). */
    public OrderServiceAct(URI orderService, RestClient.Builder http) {
        String base = orderService.toString().replaceAll("/+$", "");
        this.actUri = URI.create(base + "/api/act");
        this.client = http.requestFactory(ClientHttpRequestFactoryBuilder.jdk().build(new HttpClientSettings(
                HttpRedirects.DONT_FOLLOW, Duration.ofSeconds(1), Duration.ofSeconds(2), null)))
                .baseUrl(base)
                .build();
        this.check = new SourceCheck("order-service", this::ask);
    }

    /** The act the order service said last, after asking it again if the last answer is not fresh. */
    public Optional<Act> current() {
        check.answer();
        return Optional.ofNullable(known);
    }

    /** The order service answers: what the dashboard needs in act 3, where it pulls the feed. */
    public SourceCheck check() {
        return check;
    }

    /**
     * Asks for the act: {@link IllegalStateException} when the order service answers other than 200,
     * {@link UncheckedIOException} when it does not answer.
     */
    private String ask() {
        byte[] body;
        try {
            body = client.get().uri("/api/act").accept(MediaType.APPLICATION_JSON).exchange((request, response) -> {
                if (response.getStatusCode().value() != 200) {
                    throw new IllegalStateException(actUri + " answered " + response.getStatusCode().value());
                }
                return response.getBody().readAllBytes();
            }, true);
        }
        catch (RestClientException ex) {
            if (Thread.currentThread().isInterrupted()) {
                throw new IllegalStateException("interrupted", ex);
            }
            throw new UncheckedIOException(actUri + " does not answer",
                    ex.getCause() instanceof IOException io ? io : new IOException(ex.getMessage(), ex));
        }
        Act act = Act.fromId(JSON.readTree(body).path("act").asString());
        known = act;
        return actUri.getAuthority() + ", act " + act.id();
    }
}
