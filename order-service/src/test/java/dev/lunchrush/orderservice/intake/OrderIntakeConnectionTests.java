package dev.lunchrush.orderservice.intake;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;

import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.OrderServiceTests;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /orders} ({@link OrderEndpoint}) on one connection: an order sent at once and one that waits for
 * {@code 100 Continue} get the same answers, and several requests on one connection, pipelined or not, are
 * answered in the order they came, each once.
 */
class OrderIntakeConnectionTests extends OrderServiceTests {

    @Autowired
    OrderIntake intake;

    @BeforeEach
    void actOneWithEmptyQueues() {
        act("{\"act\":\"shared-queue\"}");
        purgeOrderQueues();
    }

    @Test
    void ordersAndOtherRequestsPipelinedOnOneConnectionAreAnsweredInOrder() throws IOException {
        long placedBefore = intake.placedTotal();
        String key = "pipelined-" + UUID.randomUUID();
        List<byte[]> requests = List.of(
                postRequest(validOrder(), key),
                getRequest("/api/act"),
                postRequest(validOrder(), key),
                postRequest("{\"kitchenId\":\"k9\"}", null),
                getRequest("/menu"),
                postRequest(validOrder(), null),
                postRequest(validOrder(), null));

        List<Response> responses = exchange(requests, true);

        assertThat(responses).extracting(Response::status).containsExactly(201, 200, 201, 400, 200, 201, 201);
        assertThat(json(responses.get(1).body()).get("act").stringValue()).isEqualTo("shared-queue");
        assertThat(json(responses.get(4).body()).get("kitchens").isArray()).isTrue();
        assertThat(responses.get(2).body()).as("the key's stored answer").isEqualTo(responses.get(0).body());
        assertThat(responses.get(2).headers()).containsEntry("idempotent-replayed", "true");
        assertThat(responses.get(3).headers().get("content-type")).startsWith("application/problem+json");
        assertThat(intake.placedTotal() - placedBefore).isEqualTo(3);
        assertThat(queueDepth(Topology.SHARED_QUEUE)).isEqualTo(3);
    }

    @Test
    void aConnectionKeepsBeingReadAfterPipelinedRequestsAnsweredAtOnce() throws IOException {
        // a request WebFlux answers a little later, one it answers at once sent right behind it, then more on the
        // same connection: Reactor Netty 1.3.6 buffers the second while the first finishes and, once it is
        // answered, may ask for no more bytes; every request after that would wait for ever
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            for (int round = 0; round < 20; round++) {
                out.write(getRequest("/feed?max=1&waitMillis=30"));
                out.write(getRequest("/api/act"));
                out.flush();
                assertThat(readResponse(in).status()).isEqualTo(200);
                assertThat(readResponse(in).status()).isEqualTo(200);
                out.write(getRequest("/menu"));
                out.flush();
                assertThat(readResponse(in).status()).as("round %d: the request after the pair", round).isEqualTo(200);
                out.write(postRequest(validOrder(), null));
                out.flush();
                assertThat(readResponse(in).status()).as("round %d: an order after them", round).isEqualTo(201);
            }
        }
    }

    @Test
    void ordersOneAfterAnotherOnOneConnectionAreEachPlacedOnce() throws IOException {
        long placedBefore = intake.placedTotal();
        List<byte[]> requests = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            requests.add(i % 5 == 4 ? getRequest("/api/stats") : postRequest(validOrder(), null));
        }

        List<Response> responses = exchange(requests, false);

        assertThat(responses).hasSize(20).allSatisfy(response -> assertThat(response.status()).isIn(200, 201));
        assertThat(intake.placedTotal() - placedBefore).isEqualTo(16);
        assertThat(queueDepth(Topology.SHARED_QUEUE)).isEqualTo(16);
    }

    @Test
    void anOrderThatExpectsContinueIsAnsweredByTheControllerAlike() throws IOException {
        long placedBefore = intake.placedTotal();
        byte[] body = validOrder().getBytes(StandardCharsets.UTF_8);
        String head = "POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Expect: 100-continue\r\nContent-Length: " + body.length + "\r\n\r\n";

        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readResponse(in).status()).isEqualTo(100);
            out.write(body);
            out.flush();
            Response placed = readResponse(in);

            assertThat(placed.status()).isEqualTo(201);
            assertThat(placed.headers().get("location")).startsWith("/orders/");
            assertThat(json(placed.body()).get("act").stringValue()).isEqualTo("shared-queue");
        }
        assertThat(intake.placedTotal() - placedBefore).isEqualTo(1);
    }

    @Test
    void aBadOrderGetsTheSameProblemBothWays() throws IOException {
        String bad = "{\"kitchenId\":\"k3\",\"customerId\":7,\"items\":[{\"dish\":\"nope\",\"quantity\":0}],\"extra\":true}";
        byte[] body = bad.getBytes(StandardCharsets.UTF_8);
        byte[] expecting = ("POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Expect: 100-continue\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);

        Response onTheConnection = exchange(List.of(postRequest(bad, null)), false).get(0);
        Response byTheController;
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(expecting);
            assertThat(readResponse(socket.getInputStream()).status()).isEqualTo(100);
            socket.getOutputStream().write(body);
            byTheController = readResponse(socket.getInputStream());
        }

        assertThat(onTheConnection.status()).isEqualTo(400);
        assertThat(byTheController.status()).isEqualTo(400);
        assertThat(onTheConnection.headers().get("content-type")).startsWith("application/problem+json");
        assertThat(byTheController.headers().get("content-type")).startsWith("application/problem+json");
        JsonNode first = json(onTheConnection.body());
        JsonNode second = json(byTheController.body());
        assertThat(first).isEqualTo(second);
        assertThat(first.get("errors")).hasSize(5);
    }

    @Test
    void aConnectionThatAsksToCloseIsClosedAfterTheAnswer() throws IOException {
        byte[] body = validOrder().getBytes(StandardCharsets.UTF_8);
        byte[] request = ("POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n" + validOrder()).getBytes(StandardCharsets.UTF_8);

        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request);
            InputStream in = socket.getInputStream();
            Response placed = readResponse(in);

            assertThat(placed.status()).isEqualTo(201);
            assertThat(placed.headers()).containsEntry("connection", "close");
            assertThat(in.read()).as("end of stream").isEqualTo(-1);
        }
    }

    private record Response(int status, Map<String, String> headers, String body) {
    }

    private static byte[] postRequest(String body, String idempotencyKey) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String head = "POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + (idempotencyKey == null ? "" : "Idempotency-Key: " + idempotencyKey + "\r\n")
                + "Content-Length: " + bytes.length + "\r\n\r\n";
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
        request.writeBytes(bytes);
        return request.toByteArray();
    }

    private static byte[] getRequest(String path) {
        String credential = path.startsWith("/feed") ? "Authorization: " + basic("admin", ADMIN_PASSWORD) + "\r\n" : "";
        return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + credential + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** Sends the requests on one connection, all at once (pipelined) or each after the answer before. */
    private List<Response> exchange(List<byte[]> requests, boolean pipelined) throws IOException {
        List<Response> responses = new ArrayList<>();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            if (pipelined) {
                for (byte[] request : requests) {
                    out.write(request);
                }
                out.flush();
                for (int i = 0; i < requests.size(); i++) {
                    responses.add(readResponse(in));
                }
            }
            else {
                for (byte[] request : requests) {
                    out.write(request);
                    out.flush();
                    responses.add(readResponse(in));
                }
            }
        }
        return responses;
    }

    /** One HTTP/1.1 response, its body by Content-Length or chunked (the feed streams its answer). */
    private static Response readResponse(InputStream in) throws IOException {
        String statusLine = line(in);
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        String header;
        while (!(header = line(in)).isEmpty()) {
            int colon = header.indexOf(':');
            headers.put(header.substring(0, colon).trim().toLowerCase(Locale.ROOT), header.substring(colon + 1).trim());
        }
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
            int size;
            while ((size = Integer.parseInt(line(in).split(";")[0].trim(), 16)) > 0) {
                body.write(in.readNBytes(size));
                line(in);
            }
            while (!line(in).isEmpty()) {
                // trailers, none expected
            }
            return new Response(status, headers, body.toString(StandardCharsets.UTF_8));
        }
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        byte[] body = in.readNBytes(length);
        return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1 && b != '\n') {
            if (b != '\r') {
                line.write(b);
            }
        }
        if (b == -1 && line.size() == 0) {
            throw new IOException("connection closed before a response");
        }
        return line.toString(StandardCharsets.US_ASCII);
    }
}
