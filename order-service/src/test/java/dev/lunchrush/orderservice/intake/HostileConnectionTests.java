package dev.lunchrush.orderservice.intake;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.lunchrush.orderservice.OrderServiceTests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Clients that declare an order's 64 KB and send nothing: the server holds nothing for what they promise (the
 * heap grows by far less than the declared bytes), and lets each go at its request timeout (10 s,
 * {@code lunchrush-server-limits.properties}) with a 408; an order from another client meanwhile is placed; once let
 * go, they leave nothing on the heap (with a read timeout shorter than the request timeout, Reactor Netty kept each
 * closed connection, its exchange and its error until the request timeout's task fired: 1,000 of them held ~12 MB).
 */
class HostileConnectionTests extends OrderServiceTests {

    private static final int CONNECTIONS = 1_000;
    private static final int DECLARED = 64 * 1024;

    @Test
    void connectionsThatPromiseABodyAndSendNothingHoldNoBufferAndAreLetGoWith408() throws Exception {
        act("{\"act\":\"shared-queue\"}");
        assertThat(placeOrder(validOrder()).statusCode()).as("a first order, before them").isEqualTo(201);
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long before = usedAfterGc(memory);
        byte[] head = ("POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                + DECLARED + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        List<Socket> sockets = new ArrayList<>();
        long sent = System.nanoTime();
        try {
            for (int i = 0; i < CONNECTIONS; i++) {
                Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
                socket.getOutputStream().write(head);
                socket.getOutputStream().flush();
                sockets.add(socket);
            }
            // the server has read every request's headers (an order placed meanwhile is answered at once)
            long placing = System.nanoTime();
            assertThat(send(java.net.http.HttpRequest.newBuilder(uri("/orders")).header("Content-Type", "application/json")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString(validOrder()))).statusCode()).isEqualTo(201);
            // generous on a shared 2-core machine; ./demo chaos --scenario hostile-clients holds the stack to a second
            assertThat((System.nanoTime() - placing) / 1e9).as("seconds to place an order beside them").isLessThan(5.0);
            Thread.sleep(1_000);
            long grown = usedAfterGc(memory) - before;

            assertThat(grown).as("heap grown by %d connections that declared %d bytes each", CONNECTIONS, DECLARED)
                    .isLessThan((long) CONNECTIONS * DECLARED / 4);

            int answered408 = 0;
            for (Socket socket : sockets) {
                socket.setSoTimeout(Math.max(1, (int) (20_000 - (System.nanoTime() - sent) / 1_000_000)));
                if (status(socket.getInputStream()).equals("408")) {
                    answered408++;
                }
            }
            double seconds = (System.nanoTime() - sent) / 1e9;
            assertThat(answered408).as("answered 408").isEqualTo(CONNECTIONS);
            assertThat(seconds).as("seconds until the last was let go").isBetween(9.0, 20.0);

            // let go, they leave the heap within seconds (with a read timeout beside the request timeout: only when
            // the request timeout's task fired, 20 s later)
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(usedAfterGc(memory) - before).as("heap still held after %d connections were let go",
                            CONNECTIONS).isLessThan(3L * 1024 * 1024));
        }
        finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    private static long usedAfterGc(MemoryMXBean memory) {
        System.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }

    private static String status(InputStream in) throws IOException {
        try {
            byte[] line = in.readNBytes(12);
            return line.length < 12 ? "closed" : new String(line, 9, 3, StandardCharsets.US_ASCII);
        }
        catch (SocketTimeoutException ex) {
            return "no answer";
        }
    }
}
