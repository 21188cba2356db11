package dev.lunchrush.processes;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

/** Does it answer? Ports, HTTP health endpoints and the Kafka broker itself. */
public final class Probe {

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    private Probe() {
    }

    public static boolean portOpen(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 1000);
            return true;
        }
        catch (IOException ex) {
            return false;
        }
    }

    /** The HTTP status of a GET, or -1 when nothing answers. */
    public static int httpStatus(URI uri) {
        return get(uri).status();
    }

    /**
     * Spring Boot's readiness probe says UP: what the service needs in the current act answers (the order service
     * in the log act is ready with RabbitMQ stopped).
     */
    public static boolean actuatorUp(URI base) {
        Answer answer = get(URI.create(base + "/actuator/health/readiness"));
        return answer.status() == 200 && answer.body().contains("\"UP\"");
    }

    /** The broker answers a describeCluster with at least {@code brokers} nodes. */
    public static boolean kafkaUp(String bootstrapServers, int brokers) {
        if (!portOpen(bootstrapServers.split(",")[0].split(":")[0],
                Integer.parseInt(bootstrapServers.split(",")[0].split(":")[1]))) {
            return false;
        }
        Map<String, Object> config = Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 4000,
                AdminClientConfig.CLIENT_ID_CONFIG, "demo-launcher");
        try (Admin admin = Admin.create(config)) {
            int nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs(4000))
                    .nodes().get(5, TimeUnit.SECONDS).size();
            return nodes >= brokers;
        }
        catch (Exception ex) {
            if (ex instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return false;
        }
    }

    private static Answer get(URI uri) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(3)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body() == null ? "" : response.body());
        }
        catch (IOException | IllegalArgumentException ex) {
            return new Answer(-1, "");
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return new Answer(-1, "");
        }
    }

    private record Answer(int status, String body) {
    }
}
