package dev.lunchrush.orderservice.idempotency;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.OrderServiceApplication;
import dev.lunchrush.orderservice.OrderServiceTests;

import static org.assertj.core.api.Assertions.assertThat;

/** A retried POST with the same Idempotency-Key gets the first answer, never a second order. */
class IdempotencyTests extends OrderServiceTests {

    @Autowired
    Environment environment;

    @BeforeEach
    void actOne() {
        act("{\"act\":\"shared-queue\"}");
        purgeOrderQueues();
    }

    @AfterEach
    void backToActOne() {
        pullFeed("max=10000&waitMillis=0");
        act("{\"act\":\"shared-queue\"}");
    }

    @Test
    void retryGetsTheSameAnswerAndNoSecondOrder() {
        String key = UUID.randomUUID().toString();

        HttpResponse<String> first = postJson("/orders", validOrder(), Map.of("Idempotency-Key", key));
        HttpResponse<String> retry = postJson("/orders", validOrder().replace(",", ", "), Map.of("Idempotency-Key", key));

        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(retry.statusCode()).isEqualTo(201);
        assertThat(retry.body()).isEqualTo(first.body());
        assertThat(retry.headers().firstValue("Location")).isEqualTo(first.headers().firstValue("Location"));
        assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(queueDepth(Topology.SHARED_QUEUE)).isEqualTo(1);
    }

    @Test
    void sameKeyForAnotherOrderIs422() {
        String key = UUID.randomUUID().toString();
        postJson("/orders", validOrder(), Map.of("Idempotency-Key", key));

        HttpResponse<String> other = postJson("/orders", validOrder().replace("\"quantity\":2", "\"quantity\":3"),
                Map.of("Idempotency-Key", key));

        assertThat(other.statusCode()).isEqualTo(422);
        assertThat(json(other.body()).get("errors").get(0).get("field").stringValue()).isEqualTo("Idempotency-Key");
        assertThat(queueDepth(Topology.SHARED_QUEUE)).isEqualTo(1);
    }

    @Test
    void concurrentDuplicatesMakeOneOrder() throws Exception {
        String key = UUID.randomUUID().toString();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(() -> postJson("/orders", validOrder(), Map.of("Idempotency-Key", key)));
            }
            List<String> bodies = new ArrayList<>();
            for (Future<HttpResponse<String>> response : pool.invokeAll(calls)) {
                assertThat(response.get().statusCode()).isEqualTo(201);
                bodies.add(response.get().body());
            }
            assertThat(bodies).containsOnly(bodies.get(0));
        }
        finally {
            pool.shutdownNow();
        }
        assertThat(queueDepth(Topology.SHARED_QUEUE)).isEqualTo(1);
    }

    @Test
    void throttledOrderRetriedWithTheSameKeyIsPlacedOnce() {
        act("{\"act\":\"memory-feed\",\"strategy\":\"throttle\",\"capacity\":1}");
        pullFeed("max=10000&waitMillis=0");
        assertThat(placeOrder().statusCode()).isEqualTo(201);
        String key = UUID.randomUUID().toString();

        HttpResponse<String> throttled = postJson("/orders", validOrder(), Map.of("Idempotency-Key", key));
        pullFeed("max=10&waitMillis=0");
        HttpResponse<String> retried = postJson("/orders", validOrder(), Map.of("Idempotency-Key", key));
        HttpResponse<String> again = postJson("/orders", validOrder(), Map.of("Idempotency-Key", key));

        assertThat(throttled.statusCode()).isEqualTo(429);
        assertThat(retried.statusCode()).isEqualTo(201);
        assertThat(again.statusCode()).isEqualTo(201);
        assertThat(again.body()).isEqualTo(retried.body());
        assertThat(queueDepth(Topology.KITCHEN_QUEUE)).isEqualTo(2);
    }

    @Test
    void badKeyIs400() {
        HttpResponse<String> response = postJson("/orders", validOrder(), Map.of("Idempotency-Key", "x".repeat(300)));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response.body()).get("errors").get(0).get("field").stringValue()).isEqualTo("Idempotency-Key");
        assertThat(queueDepth(Topology.SHARED_QUEUE)).isZero();
    }

    @Test
    void theAnswerAndTheActSurviveARestart() {
        Path dataDir = temporaryFolder("order-service-restart");
        String key = UUID.randomUUID().toString();
        String firstBody;
        String location;
        try (ConfigurableApplicationContext first = start(dataDir)) {
            OrderServiceClient client = new OrderServiceClient(first);
            client.act("{\"act\":\"queue-per-reader\"}");
            HttpResponse<String> response = client.post(validOrder(), key);
            assertThat(response.statusCode()).isEqualTo(201);
            firstBody = response.body();
            location = response.headers().firstValue("Location").orElseThrow();
        }

        try (ConfigurableApplicationContext second = start(dataDir)) {
            OrderServiceClient client = new OrderServiceClient(second);
            assertThat(json(client.get("/api/act").body()).get("act").stringValue()).isEqualTo("queue-per-reader");
            HttpResponse<String> retry = client.post(validOrder(), key);
            assertThat(retry.statusCode()).isEqualTo(201);
            assertThat(retry.body()).isEqualTo(firstBody);
            assertThat(retry.headers().firstValue("Location")).hasValue(location);
        }
        assertThat(queueDepth(Topology.KITCHEN_QUEUE)).isEqualTo(1);
        assertThat(queueDepth(Topology.ANALYTICS_QUEUE)).isEqualTo(1);
    }

    private ConfigurableApplicationContext start(Path dataDir) {
        // command-line arguments, so that they win over application.yml (server.port 8080 may be taken)
        List<String> args = new ArrayList<>();
        args.add("--server.port=0");
        args.add("--server.address=127.0.0.1");
        args.add("--lunchrush.data-dir=" + dataDir);
        for (String name : List.of("spring.rabbitmq.host", "spring.rabbitmq.port", "spring.rabbitmq.username",
                "spring.rabbitmq.password", "spring.rabbitmq.virtual-host", "spring.kafka.bootstrap-servers")) {
            args.add("--" + name + "=" + environment.getRequiredProperty(name));
        }
        return new SpringApplicationBuilder(OrderServiceApplication.class).run(args.toArray(String[]::new));
    }

    /** The same calls as the test's own helpers, against a service started inside the test. */
    private final class OrderServiceClient {

        private final int port;

        OrderServiceClient(ConfigurableApplicationContext context) {
            this.port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
        }

        HttpResponse<String> post(String body, String key) {
            int saved = IdempotencyTests.this.port;
            IdempotencyTests.this.port = port;
            try {
                return postJson("/orders", body, Map.of("Idempotency-Key", key));
            }
            finally {
                IdempotencyTests.this.port = saved;
            }
        }

        HttpResponse<String> get(String path) {
            int saved = IdempotencyTests.this.port;
            IdempotencyTests.this.port = port;
            try {
                return IdempotencyTests.this.get(path);
            }
            finally {
                IdempotencyTests.this.port = saved;
            }
        }

        void act(String body) {
            int saved = IdempotencyTests.this.port;
            IdempotencyTests.this.port = port;
            try {
                IdempotencyTests.this.act(body);
            }
            finally {
                IdempotencyTests.this.port = saved;
            }
        }
    }
}
