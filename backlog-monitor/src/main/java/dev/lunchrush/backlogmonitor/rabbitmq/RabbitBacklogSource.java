package dev.lunchrush.backlogmonitor.rabbitmq;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.amqp.autoconfigure.RabbitProperties;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

import dev.lunchrush.backlogmonitor.BacklogProperties;
import dev.lunchrush.backlogmonitor.RabbitManagementProperties;
import dev.lunchrush.backlogmonitor.readers.BacklogSource;
import dev.lunchrush.backlogmonitor.readers.ReaderBacklog;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The queues of the acts, seen through RabbitMQ's management API (one {@code GET /api/queues/{vhost}} per
 * poll, only the columns used):
 * {@code messages} (ready + unacknowledged) is the backlog, {@code head_message_timestamp} (the
 * AMQP {@code timestamp} property of the next message to deliver, in whole seconds) dates it.
 * Asking the management API rather than peeking with a channel means the monitor never takes a
 * message off a queue or holds one unacknowledged.
 */
@Component
class RabbitBacklogSource implements BacklogSource {

    static final String KIND = "rabbitmq";

    /** The figures {@link #backlogOf} reads, and the name: all that is asked of the management API. */
    private static final String COLUMNS = "name,messages,messages_ready,messages_unacknowledged,consumers,"
            + "head_message_timestamp";

    private final List<String> queues;
    private final URI queuesUri;
    private final String vhost;
    private final Duration pollInterval;
    private final RestClient http;
    private final JsonMapper json = JsonMapper.builder().build();

    /** {@code http}: a builder of the application's (it is configured here, so a fresh one). */
    RabbitBacklogSource(BacklogProperties properties, RabbitManagementProperties management,
            RabbitProperties rabbit, RestClient.Builder http) {
        this.queues = properties.rabbitmq().queues();
        String base = management.managementUri().toString();
        this.vhost = rabbit.determineVirtualHost() == null ? "/" : rabbit.determineVirtualHost();
        this.queuesUri = URI.create(base.endsWith("/") ? base : base + "/")
                .resolve("api/queues/" + encode(vhost) + "?columns=" + COLUMNS);
        this.pollInterval = properties.rabbitmq().pollInterval();
        Duration timeout = properties.brokerTimeout();
        HttpClientSettings settings = new HttpClientSettings(HttpRedirects.DONT_FOLLOW, timeout, timeout, null);
        this.http = http
                // HTTP/1.1: RabbitMQ's management listener drops the JDK client's h2c upgrade
                .requestFactory(ClientHttpRequestFactoryBuilder.jdk()
                        .withHttpClientCustomizer(client -> client.version(HttpClient.Version.HTTP_1_1))
                        .build(settings))
                .baseUrl(base.replaceAll("/+$", ""))
                .defaultHeaders(headers -> headers.setBasicAuth(rabbit.determineUsername(), rabbit.determinePassword(),
                        StandardCharsets.UTF_8))
                .build();
    }

    @Override
    public String name() {
        return KIND;
    }

    @Override
    public Duration pollInterval() {
        return pollInterval;
    }

    /**
     * The queues' backlogs; none while the virtual host does not exist. Throws {@link IOException} when the
     * management API does not answer or answers other than 200 or 404.
     */
    @Override
    public List<ReaderBacklog> poll() throws IOException, InterruptedException {
        String queuesJson;
        try {
            queuesJson = http.get().uri("/api/queues/{vhost}?columns={columns}", vhost, COLUMNS).accept(MediaType.APPLICATION_JSON).exchange((request, response) -> {
                int status = response.getStatusCode().value();
                if (status == 404) {
                    // no such virtual host (yet): no queue, no reader
                    return null;
                }
                if (status != 200) {
                    throw new IOException("RabbitMQ management answered " + status + " for the queues");
                }
                return new String(response.getBody().readAllBytes(), StandardCharsets.UTF_8);
            }, true);
        }
        catch (RestClientException ex) {
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted asking " + queuesUri);
            }
            throw ex.getCause() instanceof IOException io ? io : new IOException("GET " + queuesUri + " failed", ex);
        }
        if (queuesJson == null) {
            return List.of();
        }
        Map<String, JsonNode> declared = new HashMap<>();
        for (JsonNode queue : json.readTree(queuesJson)) {
            declared.put(queue.path("name").asString(""), queue);
        }
        List<ReaderBacklog> readers = new ArrayList<>();
        for (String queue : queues) {
            JsonNode body = declared.get(queue);
            // a queue not declared (yet) in this virtual host is not a reader
            if (body != null) {
                readers.add(backlogOf(queue, body));
            }
        }
        return readers;
    }

    static ReaderBacklog backlogOf(String queue, JsonNode body) {
        long ready = body.path("messages_ready").asLong(0);
        long unacked = body.path("messages_unacknowledged").asLong(0);
        long messages = body.has("messages") ? body.path("messages").asLong(0) : ready + unacked;
        JsonNode head = body.path("head_message_timestamp");
        // whole seconds, as the AMQP timestamp property carries them
        Instant oldest = messages > 0 && head.isNumber() ? Instant.ofEpochSecond(head.asLong()) : null;
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("ready", ready);
        details.put("unacknowledged", unacked);
        details.put("consumers", body.path("consumers").asLong(0));
        details.put("headMessageTimestamp", oldest == null ? null : oldest.toString());
        return new ReaderBacklog(KIND + ":" + queue, KIND, messages, oldest, details);
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
