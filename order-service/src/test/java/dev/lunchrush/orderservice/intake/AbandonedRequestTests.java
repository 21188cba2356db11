package dev.lunchrush.orderservice.intake;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.OrdersTopic;
import dev.lunchrush.orderservice.StalledBrokersTests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An order whose client gave up (closed its connection) before the answer still ends on its own: written or refused,
 * its outcome kept with its Idempotency-Key, and a retry with the key gets it as soon as it is known, never "still
 * running" once the first attempt has ended. On real brokers: Kafka standing still ({@code SIGSTOP}) under the first
 * attempt, and act 3's {@code block} with a full feed, which refuses the order after its wait.
 */
class AbandonedRequestTests extends StalledBrokersTests {

    /** Longer than the service's own wait for a first attempt (30 s): a retry is never cut by the client here. */
    private static final HttpClient PATIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @AfterEach
    void brokersGoOn() {
        KAFKA.thaw();
        pullFeed("max=10000&waitMillis=0");
        act("{\"act\":\"shared-queue\"}");
        purgeOrderQueues();
    }

    @Test
    void anOrderWhoseClientGaveUpIsWrittenAndTheRetryGetsItsAnswerOnceKafkaAnswers() {
        act("{\"act\":\"log\"}");
        // the producer and its metadata ready before the broker stands still
        assertThat(placeOrder().statusCode()).isEqualTo(201);
        String customer = "c-gave-up-" + UUID.randomUUID();
        String order = validOrder().replace("c-1042", customer);
        String key = UUID.randomUUID().toString();

        KAFKA.freeze();
        try {
            // the send timeout is 2 s: the client gives up first, and the broker goes on before the order's deadline
            sendAndGiveUp(order, key, Duration.ofSeconds(1));
        }
        finally {
            KAFKA.thaw();
        }
        long thawed = System.nanoTime();
        HttpResponse<String> retried = patientlyPost(order, key);
        Duration took = Duration.ofNanos(System.nanoTime() - thawed);

        assertThat(retried.statusCode()).as(retried.body()).isEqualTo(201);
        assertThat(retried.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(took).as("from the broker going on to the retry's answer").isLessThan(Duration.ofSeconds(1));
        assertThat(OrdersTopic.readAll(KAFKA.bootstrapServers(), event -> event.customerId().equals(customer)))
                .as("the order in the log").singleElement()
                .satisfies(record -> assertThat(json(retried.body()).get("orderId").stringValue())
                        .isEqualTo(dev.lunchrush.events.OrderEventCodec.decode(record.value()).orderId()));
    }

    @Test
    void anOrderWhoseClientGaveUpIsRefusedOnItsOwnAndTheRetryGetsTheRefusalThenPlacesIt() {
        act("{\"act\":\"memory-feed\",\"strategy\":\"block\",\"capacity\":1}");
        pullFeed("max=10000&waitMillis=0");
        purgeOrderQueues();
        assertThat(placeOrder().statusCode()).as("the order that fills the feed").isEqualTo(201);
        String key = UUID.randomUUID().toString();

        // block waits 2 s for room that does not come: the client gives up after 1 s, the order is refused at 2 s
        sendAndGiveUp(validOrder(), key, Duration.ofSeconds(1));
        HttpResponse<String> meanwhile = patientlyPost(validOrder(), key);

        assertThat(meanwhile.statusCode()).as(meanwhile.body()).isEqualTo(503);
        assertThat(json(meanwhile.body()).get("detail").stringValue()).as("the first attempt's own refusal")
                .doesNotContain("still running");
        assertThat(json(pullFeed("max=1&waitMillis=0").body()).size()).as("room made in the feed").isEqualTo(1);
        HttpResponse<String> retried = patientlyPost(validOrder(), key);
        assertThat(retried.statusCode()).as(retried.body()).isEqualTo(201);
        assertThat(retried.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(queueDepth(Topology.KITCHEN_QUEUE)).as("orders the kitchen got").isEqualTo(2);
    }

    /**
     * {@code POST /orders} with the key over a connection of its own, whose client waits {@code patience} for the
     * answer (none comes) and then closes the connection.
     */
    private void sendAndGiveUp(String order, String key, Duration patience) {
        byte[] body = order.getBytes(StandardCharsets.UTF_8);
        String head = "POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nIdempotency-Key: " + key
                + "\r\nContent-Length: " + body.length + "\r\n\r\n";
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) patience.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            assertThatThrownBy(() -> socket.getInputStream().read()).as("an answer within the client's patience")
                    .isInstanceOf(SocketTimeoutException.class);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private HttpResponse<String> patientlyPost(String order, String key) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/orders"))
                .header("Content-Type", "application/json").header("Idempotency-Key", key)
                .timeout(Duration.ofSeconds(45)).POST(HttpRequest.BodyPublishers.ofString(order)).build();
        try {
            return PATIENT.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
