package dev.lunchrush.chaos;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import dev.lunchrush.load.menu.Menu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Each order's outcome sorted as the oracle needs it: acknowledged, refused, another answer, not connected. */
class OrderStreamTests {

    private static final Menu MENU = new Menu(List.of(new Menu.Kitchen("k1", "Noodle Bar", List.of("pad-thai", "ramen"))));

    @Test
    void sortsTheAnswersAndCountsAServiceThatIsDownAsNotConnected() throws Exception {
        AtomicInteger placed = new AtomicInteger();
        HttpServer orderService = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        orderService.createContext("/orders", exchange -> {
            exchange.getRequestBody().readAllBytes();
            int n = placed.incrementAndGet();
            int status = n % 3 == 1 ? 201 : n % 3 == 2 ? 503 : 400;
            byte[] body = ("{\"orderId\": \"o-" + n + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        orderService.start();
        try (OrderStream stream = OrderStream.start(URI.create("http://127.0.0.1:" + orderService.getAddress().getPort()),
                MENU, 50, 7)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> placed.get() >= 6);
            assertThat(stream.stop()).isTrue();
            assertThat(stream.acknowledged).isNotEmpty().allSatisfy(id -> assertThat(id).startsWith("o-"));
            assertThat(stream.refused.get()).isPositive();
            assertThat(stream.otherAnswers.get(400)).isNotNull();
            assertThat(stream.acknowledged.size() + stream.refused.get() + stream.others()).isEqualTo(stream.sent.get());
            assertThat(stream.unanswered.get() + stream.notConnected.get()).isZero();
        }
        finally {
            orderService.stop(0);
        }

        int free;
        try (ServerSocket socket = new ServerSocket(0)) {
            free = socket.getLocalPort();
        }
        try (OrderStream stream = OrderStream.start(URI.create("http://127.0.0.1:" + free), MENU, 50, 7)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> stream.notConnected.get() >= 2);
            assertThat(stream.stop()).isTrue();
            assertThat(stream.notConnected.get()).isEqualTo(stream.sent.get());
        }
    }
}
