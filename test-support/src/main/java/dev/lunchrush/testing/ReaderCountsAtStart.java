package dev.lunchrush.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every counter an alert watches is exported from the start, at 0, for every source, so that {@code increase()}
 * and {@code rate()} see the first dead letter. A reader's test (its {@code StartMetricsTests}) starts the reader
 * on a fresh data folder whose sources are off (nothing can arrive) and asks this right after the start.
 */
public final class ReaderCountsAtStart {

    private ReaderCountsAtStart() {
    }

    /** {@code orders_received_total} and {@code orders_dead_lettered_total} at 0 for each source, from {@code /actuator/prometheus}. */
    public static void assertExportedAtZero(int port, String application, List<String> sources) {
        HttpResponse<String> response;
        try {
            response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus")).build(),
                    HttpResponse.BodyHandlers.ofString());
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
        assertThat(response.statusCode()).isEqualTo(200);
        for (String source : sources) {
            assertThat(response.body().lines())
                    .contains("orders_dead_lettered_total{application=\"" + application + "\",source=\"" + source + "\"} 0.0")
                    .contains("orders_received_total{application=\"" + application + "\",source=\"" + source + "\"} 0.0");
        }
    }
}
