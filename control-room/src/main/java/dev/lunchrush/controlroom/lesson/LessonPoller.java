package dev.lunchrush.controlroom.lesson;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.ToIntFunction;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

import dev.lunchrush.controlroom.ControlRoomProperties;
import dev.lunchrush.controlroom.StackProperties;
import dev.lunchrush.controlroom.rushes.Rushes;
import dev.lunchrush.lesson.Snapshot;
import dev.lunchrush.load.rush.StackSampler;
import dev.lunchrush.localstack.StackManifest;
import dev.lunchrush.localstack.access.ActState;
import dev.lunchrush.localstack.access.Endpoints;
import dev.lunchrush.localstack.access.ReaderStats;
import dev.lunchrush.localstack.access.ServiceClient;

/**
 * Asks the stack for the lesson, every service in parallel with a short timeout, so that a service that is down (or
 * dying) shows as down without holding the others back. An answer at most a push interval old is reused: any number of
 * open pages and API calls cost one poll a second, and none at all when nobody asks.
 */
@Component
class LessonPoller implements DisposableBean {

    private final Map<String, ServiceClient> clients = new LinkedHashMap<>();
    private final ServiceClient prometheus;
    private final ToolsProbe tools;
    private final Duration timeout;
    private final Duration maxAge;
    private final Rushes rushes;
    private final Clock clock;
    private final ExecutorService pool = Executors.newFixedThreadPool(6, runnable -> {
        Thread thread = new Thread(runnable, "lesson-poll");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<String, String> links = new LinkedHashMap<>();
    private @Nullable Lesson last;

    LessonPoller(Endpoints endpoints, StackProperties stack, ControlRoomProperties properties, Rushes rushes, Clock clock) {
        this.timeout = properties.pollTimeout();
        this.maxAge = properties.pushInterval();
        this.rushes = rushes;
        this.clock = clock;
        for (StackManifest.Service service : StackManifest.get().lessonServices()) {
            clients.put(service.name(), client(service.name(), endpoints.of(service.name())));
        }
        this.prometheus = client("prometheus", stack.prometheusUrl());
        this.tools = new ToolsProbe(status(prometheus), status(client("grafana", stack.grafanaUrl())),
                status(client("kafka-ui", stack.kafkaUiUrl())), status(client("zipkin", stack.zipkinUrl())), clock);
        ControlRoomProperties.Links configured = properties.links();
        put("kitchenScreen", configured.kitchenScreen());
        put("analyticsDashboard", configured.analyticsDashboard());
        put("reportReplayer", configured.reportReplayer());
        put("backlogMonitor", configured.backlogMonitor());
        put("grafana", configured.grafana());
        put("prometheus", configured.prometheus());
        put("kafkaUi", configured.kafkaUi());
        put("zipkin", configured.zipkin());
    }

    private void put(String page, @Nullable URI link) {
        if (link != null) {
            links.put(page, link.toString());
        }
    }

    private ServiceClient client(String name, URI base) {
        return new ServiceClient(name, base, () -> "", timeout, timeout);
    }

    /** The status of a GET of a path there, 0 when nothing answers. */
    private ToIntFunction<String> status(ServiceClient client) {
        return path -> client.tryStatus(path, timeout);
    }

    /** The lesson now, or as asked less than a push interval ago. */
    synchronized Lesson lesson() {
        Instant now = clock.instant();
        if (last == null || Duration.between(last.at(), now).compareTo(maxAge.minusMillis(100)) >= 0) {
            last = poll(now);
        }
        return last;
    }

    private Lesson poll(Instant now) {
        Map<String, CompletableFuture<String>> readiness = new LinkedHashMap<>();
        clients.forEach((name, client) -> readiness.put(name, async(() -> readiness(name, client))));
        CompletableFuture<Optional<JsonNode>> act = get("order-service", "/api/act");
        CompletableFuture<Optional<JsonNode>> orders = get("order-service", "/api/stats");
        CompletableFuture<Optional<JsonNode>> kitchen = get("kitchen-screen", "/api/stats");
        CompletableFuture<Optional<JsonNode>> dashboard = get("analytics-dashboard", "/api/stats");
        CompletableFuture<Optional<JsonNode>> backlogs = get("backlog-monitor", "/api/readers");
        CompletableFuture<Optional<JsonNode>> alerts = async(() -> prometheus.tryGet("/api/v1/alerts", timeout));
        // asked from this thread, not the pool's: its own questions go to the pool after the ones above
        Lesson.Tools tools = this.tools.tools(pool);

        List<Lesson.ServiceState> services = new ArrayList<>();
        readiness.forEach((name, state) -> services.add(new Lesson.ServiceState(name, state.join())));
        JsonNode stats = orders.join().orElse(null);
        JsonNode readers = backlogs.join().orElse(null);
        return new Lesson(now, act.join().map(LessonPoller::act).orElse(null), services, stats,
                List.of(reader("kitchen-screen", kitchen.join()), reader("analytics-dashboard", dashboard.join())),
                readers == null ? List.of() : backlogs(readers), dashboardBacklog(stats, readers), alerts(alerts.join()),
                rushes.summary().orElse(null), links, tools);
    }

    private CompletableFuture<Optional<JsonNode>> get(String service, String path) {
        ServiceClient client = clients.get(service);
        return async(() -> client.tryGet(path, timeout));
    }

    private <T> CompletableFuture<T> async(java.util.function.Supplier<T> call) {
        return CompletableFuture.supplyAsync(call, pool);
    }

    /** Its readiness probe (the manifest's health path); a service without one (404) by its health. */
    private String readiness(String name, ServiceClient client) {
        int status = client.tryStatus(StackManifest.get().service(name).health(), timeout);
        if (status == 404) {
            status = client.tryStatus("/actuator/health", timeout);
        }
        return status == 200 ? "ready" : status > 0 ? "not ready" : "down";
    }

    static Lesson.ActState act(JsonNode node) {
        ActState state = ActState.of(node);
        return new Lesson.ActState(state.act(), state.strategy(), state.capacity());
    }

    /** The dashboard's backlog where the act keeps it ({@link StackSampler#dashboardBacklog}), -1 when unknown. */
    static long dashboardBacklog(@Nullable JsonNode stats, @Nullable JsonNode readers) {
        if (stats == null) {
            return -1;
        }
        Snapshot.OrderServiceStats orderService = StackSampler.orderServiceStats(stats);
        return StackSampler.dashboardBacklog(orderService.act(), orderService, readers);
    }

    static Lesson.Reader reader(String name, Optional<JsonNode> stats) {
        if (stats.isEmpty()) {
            return new Lesson.Reader(name, false, -1, Map.of(), -1, -1);
        }
        ReaderStats read = ReaderStats.of(stats.get());
        return new Lesson.Reader(name, true, read.total(), read.received(), read.capacityPerSecond(), read.missing());
    }

    static List<Lesson.Backlog> backlogs(JsonNode readers) {
        List<Lesson.Backlog> backlogs = new ArrayList<>();
        for (JsonNode reader : readers) {
            JsonNode age = reader.path("oldestUnreadAgeSeconds");
            backlogs.add(new Lesson.Backlog(ServiceClient.text(reader, "reader"), ServiceClient.number(reader, "unread"),
                    age.isNumber() ? age.asDouble() : null));
        }
        return backlogs;
    }

    /** Prometheus's {@code /api/v1/alerts}: the firing ones, not the pending. */
    static Lesson.Alerts alerts(Optional<JsonNode> answer) {
        if (answer.isEmpty()) {
            return new Lesson.Alerts(false, List.of());
        }
        List<Lesson.Alert> firing = new ArrayList<>();
        for (JsonNode alert : answer.get().path("data").path("alerts")) {
            if ("firing".equals(alert.path("state").asString(""))) {
                JsonNode labels = alert.path("labels");
                String summary = alert.path("annotations").path("summary").asString("");
                String since = alert.path("activeAt").asString(null);
                firing.add(new Lesson.Alert(labels.path("alertname").asString(""), labels.path("severity").asString(""),
                        summary, since));
            }
        }
        return new Lesson.Alerts(true, firing);
    }

    @Override
    public void destroy() {
        pool.shutdownNow();
    }
}
