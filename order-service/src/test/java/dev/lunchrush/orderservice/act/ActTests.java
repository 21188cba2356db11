package dev.lunchrush.orderservice.act;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.lunchrush.events.Act;
import dev.lunchrush.events.FeedStrategy;
import dev.lunchrush.orderservice.OrderServiceProperties;
import dev.lunchrush.orderservice.OrderServiceTests;

import static org.assertj.core.api.Assertions.assertThat;

/** The act switch: admin only, validated, persisted, and shown as a metric. */
class ActTests extends OrderServiceTests {

    private static final Pattern SAMPLE = Pattern.compile("^(\\w+)\\{(.*)} (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    @AfterEach
    void backToActOne() {
        act("{\"act\":\"shared-queue\"}");
    }

    @Test
    void anonymousGets401ViewerGets403AdminGets200() {
        String body = "{\"act\":\"log\"}";
        HttpResponse<String> anonymous = send(HttpRequest.newBuilder(uri("/admin/act"))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body)));
        HttpResponse<String> viewer = send(HttpRequest.newBuilder(uri("/admin/act"))
                .header("Content-Type", "application/json").header("Authorization", basic("viewer", VIEWER_PASSWORD))
                .PUT(HttpRequest.BodyPublishers.ofString(body)));
        HttpResponse<String> wrongPassword = send(HttpRequest.newBuilder(uri("/admin/act"))
                .header("Content-Type", "application/json").header("Authorization", basic("admin", "guess"))
                .PUT(HttpRequest.BodyPublishers.ofString(body)));

        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(viewer.statusCode()).isEqualTo(403);
        assertThat(wrongPassword.statusCode()).isEqualTo(401);
        assertThat(json(get("/api/act").body()).get("act").stringValue()).isEqualTo("shared-queue");

        HttpResponse<String> admin = switchAct(body);
        assertThat(admin.statusCode()).isEqualTo(200);
        assertThat(json(admin.body()).get("act").stringValue()).isEqualTo("log");
        assertThat(json(get("/api/act").body()).get("act").stringValue()).isEqualTo("log");
    }

    @Test
    void memoryFeedActKeepsStrategyAndCapacityAndPersistsThem() throws Exception {
        HttpResponse<String> response = switchAct("{\"act\":\"memory-feed\",\"strategy\":\"drop\",\"capacity\":20000}");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode act = json(get("/api/act").body());
        assertThat(act.get("act").stringValue()).isEqualTo("memory-feed");
        assertThat(act.get("strategy").stringValue()).isEqualTo("drop");
        assertThat(act.get("capacity").intValue()).isEqualTo(20000);
        JsonNode file = json(Files.readString(DATA_DIR.resolve("act.json")));
        assertThat(file).isEqualTo(act);
    }

    @Test
    void defaultsAreUnboundedAndTenThousand() {
        JsonNode act = json(switchAct("{\"act\":\"memory-feed\"}").body());

        assertThat(act.get("strategy").stringValue()).isEqualTo("unbounded");
        assertThat(act.get("capacity").intValue()).isEqualTo(10000);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            {"act":"lunch"}                                      | act
            {}                                                   | act
            {"act":3}                                            | act
            {"act":"memory-feed","strategy":"panic"}             | strategy
            {"act":"memory-feed","strategy":"drop","capacity":0} | capacity
            {"act":"memory-feed","capacity":-5}                  | capacity
            {"act":"memory-feed","capacity":"lots"}              | capacity
            {"act":"log","speed":10}                             | speed
            """)
    void invalidActIs400NamingTheField(String body, String field) {
        HttpResponse<String> response = switchAct(body);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(json(response.body()).get("errors").get(0).get("field").stringValue()).isEqualTo(field);
        assertThat(json(get("/api/act").body()).get("act").stringValue()).isEqualTo("shared-queue");
    }

    @Test
    void aRestartedServiceReadsTheActItWroteBefore(@TempDir Path dataDir) {
        OrderServiceProperties properties = new OrderServiceProperties(dataDir, null, null, null, 1000, 1000);
        JsonMapper json = JsonMapper.builder().build();
        CurrentAct first = new CurrentAct(properties, json, event -> { });
        assertThat(first.get()).isEqualTo(ActState.initial());

        first.change(new ActState(Act.MEMORY_FEED, FeedStrategy.THROTTLE, 500));

        CurrentAct afterRestart = new CurrentAct(properties, json, event -> { });
        assertThat(afterRestart.get()).isEqualTo(new ActState(Act.MEMORY_FEED, FeedStrategy.THROTTLE, 500));
    }

    /**
     * {@code lunchrush_act_info} has exactly one series, the current act's, after every switch: the old
     * act's series is gone from the scrape, not left beside it. Its {@code act} is {@code GET /api/act}'s;
     * the feed's strategy and capacity are labels only where the feed uses them.
     */
    @Test
    void theActInfoGaugeShowsExactlyTheCurrentActAfterEachSwitch() {
        act("{\"act\":\"shared-queue\"}");
        assertThat(actInfo()).containsExactly(actInfo("shared-queue", "none", "none"));

        act("{\"act\":\"memory-feed\",\"strategy\":\"block\",\"capacity\":2000}");
        assertThat(actInfo()).containsExactly(actInfo("memory-feed", "block", "2000"));

        act("{\"act\":\"memory-feed\",\"strategy\":\"drop\",\"capacity\":500}");
        assertThat(actInfo()).containsExactly(actInfo("memory-feed", "drop", "500"));

        act("{\"act\":\"memory-feed\",\"strategy\":\"unbounded\",\"capacity\":500}");
        assertThat(actInfo()).containsExactly(actInfo("memory-feed", "unbounded", "none"));

        act("{\"act\":\"log\"}");
        assertThat(json(get("/api/act").body()).get("act").stringValue()).isEqualTo("log");
        assertThat(actInfo()).containsExactly(actInfo("log", "none", "none"));

        // the same act again: the same one series
        act("{\"act\":\"log\",\"strategy\":\"throttle\"}");
        assertThat(actInfo()).containsExactly(actInfo("log", "none", "none"));
    }

    private static Map<String, String> actInfo(String act, String strategy, String capacity) {
        return Map.of("__name__", "lunchrush_act_info", "application", "order-service", "act", act,
                "strategy", strategy, "capacity", capacity, "__value__", "1");
    }

    /** Every {@code lunchrush_act_info} sample of the scrape: its labels, with its name and value as two more. */
    private List<Map<String, String>> actInfo() {
        HttpResponse<String> scrape = get("/actuator/prometheus");
        assertThat(scrape.statusCode()).isEqualTo(200);
        return scrape.body().lines().filter(line -> line.startsWith("lunchrush_act_info")).map(line -> {
            Matcher sample = SAMPLE.matcher(line);
            assertThat(sample.matches()).as("a sample line: %s", line).isTrue();
            Map<String, String> labels = new LinkedHashMap<>();
            labels.put("__name__", sample.group(1));
            Matcher label = LABEL.matcher(sample.group(2));
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
            labels.put("__value__", String.valueOf((long) Double.parseDouble(sample.group(3))));
            return labels;
        }).toList();
    }
}
