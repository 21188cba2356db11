package dev.lunchrush.controlroom;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.lunchrush.testing.Browsers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Orders placed by another client while the control room runs no rush of its own (./demo rush, a script) are charted
 * on the page from the lesson itself, and the page says so; when they stop, the page says the rush ended. The room
 * has run a rush of its own before, which the page shows when it opens; the other client's orders take the charts
 * from it, and keep them. An application and a stub of its own, so that the stub's orders are this test's.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lunchrush.security.admin-password=others-admin-secret", "lunchrush.security.viewer-password=others-viewer-secret",
    "server.address=127.0.0.1"})
class OtherClientsRushTests {

    private static final StubOrderService ORDER_SERVICE = new StubOrderService();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void stack(DynamicPropertyRegistry registry) {
        ORDER_SERVICE.register(registry);
    }

    @AfterAll
    static void stopTheStub() {
        ORDER_SERVICE.stop();
    }

    private static HttpResponse<String> asAdmin(HttpRequest.Builder request) {
        String credentials = Base64.getEncoder().encodeToString("admin:others-admin-secret".getBytes(StandardCharsets.UTF_8));
        try {
            return HTTP.send(request.header("Authorization", "Basic " + credentials).build(), HttpResponse.BodyHandlers.ofString());
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    @Test
    void aRushFromAnotherClientIsChartedAndEnds() throws Exception {
        // the room's own rush first, ended before the page opens
        HttpResponse<String> started = asAdmin(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/rushes"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"rate\":10,\"duration\":\"1s\",\"seed\":3}")));
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        URI own = URI.create("http://127.0.0.1:" + port + started.headers().firstValue("Location").orElseThrow());
        await().atMost(Duration.ofSeconds(60)).until(() -> !asAdmin(HttpRequest.newBuilder(own)).body().contains("\"state\":\"running\""));
        int before = ORDER_SERVICE.orders();

        ChromeDriver browser = Browsers.headlessChromium();
        try {
            browser.get("http://127.0.0.1:" + port + "/");
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
            wait.until(page -> "live".equals(page.findElement(By.id("connection")).getText()));
            wait.until(page -> page.findElement(By.id("result-panel")).isDisplayed());

            // 20 orders a second for 5 s, straight to the order service, as ./demo rush would
            ScheduledExecutorService client = Executors.newSingleThreadScheduledExecutor();
            AtomicInteger sent = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(1);
            client.scheduleAtFixedRate(() -> {
                if (sent.incrementAndGet() > 100) {
                    done.countDown();
                    return;
                }
                try {
                    HTTP.send(HttpRequest.newBuilder(URI.create(ORDER_SERVICE.url() + "/orders"))
                            .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.discarding());
                }
                catch (Exception ex) {
                    throw new IllegalStateException(ex);
                }
            }, 0, 50, TimeUnit.MILLISECONDS);
            try {
                assertThat(done.await(30, TimeUnit.SECONDS)).as("the other client's 100 orders sent").isTrue();
            }
            finally {
                client.shutdownNow();
            }
            assertThat(ORDER_SERVICE.orders() - before).isEqualTo(100);
            wait.until(page -> page.findElement(By.id("rush-state")).getText().contains("watching"));
            long points = (Long) browser.executeScript(
                    "return Chart.getChart('chart-readers').data.datasets[0].data.length");
            double placed = ((Number) browser.executeScript(
                    "const d = Chart.getChart('chart-readers').data.datasets[0].data; return d[d.length - 1].y")).doubleValue();
            assertThat(points).as("a point a second").isGreaterThanOrEqualTo(3);
            assertThat(placed).as("the orders placed since the rush began").isBetween(1.0, 100.0);
            assertThat(browser.findElement(By.id("rush-description")).getText()).contains("another client");

            new WebDriverWait(browser, Duration.ofSeconds(40))
                    .until(page -> page.findElement(By.id("rush-state")).getText().contains("ended"));
            double last = ((Number) browser.executeScript(
                    "const d = Chart.getChart('chart-readers').data.datasets[0].data; return d[d.length - 1].y")).doubleValue();
            assertThat(last).as("every order of the rush, once it ended").isEqualTo(100.0);
            assertThat(browser.findElement(By.id("rush-description")).getText()).as("the rush on the page")
                    .contains("another client");
            assertThat(browser.findElement(By.id("result-panel")).isDisplayed()).as("the room's own closing table").isFalse();
        }
        finally {
            browser.quit();
        }
    }
}
