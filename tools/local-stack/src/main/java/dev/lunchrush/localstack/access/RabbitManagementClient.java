package dev.lunchrush.localstack.access;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * RabbitMQ's management HTTP API as the tools use it: a queue's depth. HTTP/1.1 (the management listener drops the
 * JDK client's h2c upgrade), HTTP Basic with the broker's user; connects within 3 s, waits up to 10 s for an answer.
 */
public final class RabbitManagementClient {

    private final URI base;
    private final RestClient http;

    public RabbitManagementClient(URI base, String user, String password) {
        this.base = base;
        JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(3)).build());
        requests.setReadTimeout(Duration.ofSeconds(10));
        this.http = RestClient.builder().requestFactory(requests)
                .defaultHeader(HttpHeaders.AUTHORIZATION, ServiceClient.basic(user, password))
                .build();
    }

    public URI base() {
        return base;
    }

    /**
     * Messages in a queue of the default virtual host, ready and unacknowledged; 0 when there is no such queue. A
     * {@link DemoException} when the API answers otherwise or does not answer.
     */
    public long queueDepth(String queue) {
        URI uri = Endpoints.resolve(base, "/api/queues/%2F/" + URLEncoder.encode(queue, StandardCharsets.UTF_8));
        JsonNode body;
        try {
            body = http.get().uri(uri).accept(MediaType.APPLICATION_JSON).exchange((request, response) -> {
                int status = response.getStatusCode().value();
                if (status == 404) {
                    return null;
                }
                if (status != 200) {
                    throw new DemoException("RabbitMQ's management API answered " + status + " for " + queue);
                }
                return ServiceClient.JSON.readTree(response.getBody().readAllBytes());
            }, true);
        }
        catch (RestClientException ex) {
            if (Thread.currentThread().isInterrupted()) {
                throw new DemoException("interrupted");
            }
            Throwable cause = ex.getCause() == null ? ex : ex.getCause();
            throw new DemoException("RabbitMQ's management API at " + base + " does not answer: " + cause.getMessage());
        }
        if (body == null) {
            return 0;
        }
        // "messages" lags by the management stats interval; ready + unacked is what the queue holds now
        return body.path("messages_ready").asLong() + body.path("messages_unacknowledged").asLong();
    }
}
