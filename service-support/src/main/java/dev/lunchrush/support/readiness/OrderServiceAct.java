package dev.lunchrush.support.readiness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import dev.lunchrush.events.Act;

/**
 * The act, as a reader learns it: the order service's {@code GET /api/act}, asked when readiness is (at most every
 * {@link SourceCheck#FRESH}). The last act it said is kept while it does not answer (in act 3 it is meant to die):
 * a reader goes on needing what it needed.
 */
public final class OrderServiceAct {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private final URI actUri;
    private final SourceCheck check;
    private volatile @Nullable Act known;

    public OrderServiceAct(URI orderService) {
        this.actUri = URI.create(orderService.toString().replaceAll("/+$", "") + "/api/act");
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

    private String ask() {
        try {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(actUri).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(actUri + " answered " + response.statusCode());
            }
            Act act = Act.fromId(JSON.readTree(response.body()).path("act").asString());
            known = act;
            return actUri.getAuthority() + ", act " + act.id();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(actUri + " does not answer", ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
