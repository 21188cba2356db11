package dev.lunchrush.chaos;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.localstack.access.ServiceClient;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ./demo chaos --json}: the table's figures under their keys, null where a scenario does not count one. */
class ChaosJsonTests {

    @Test
    void aRowPerScenarioWithNullWhereNothingWasCounted(@TempDir Path dir) {
        Path file = dir.resolve("out").resolve("chaos.json");
        Result logAct = new Result("kafka-kill", "log", 1600, 1600, 1600, 1600, 0, 0, 12, 0, 3, 9400,
                List.of("kafka dead 10 s"), List.of());
        Result queueAct = new Result("rabbitmq-restart-shared-queue", "shared-queue", 800, -1, 500, 300, 0, 0, 40, 0, 0, 2100,
                List.of(), List.of("2 acknowledged orders did not reach the kitchen screen"));

        ChaosJson.write(file, 100, false, List.of(logAct, queueAct));

        JsonNode document = ServiceClient.JSON.readTree(file.toFile());
        assertThat(document.propertyNames()).containsExactly("ratePerSecond", "cluster", "scenarios");
        JsonNode first = document.path("scenarios").get(0);
        assertThat(first.propertyNames()).containsExactly("scenario", "act", "acknowledged", "inLog",
                "countedByKitchenScreen", "countedByDashboard", "lost", "duplicated", "refused503", "unknownOutcome",
                "writtenWithout201", "slowestAnswerMillis", "verdict", "notes", "failures");
        assertThat(first.path("verdict").asString()).isEqualTo("pass");
        JsonNode second = document.path("scenarios").get(1);
        assertThat(second.path("inLog").isNull()).isTrue();
        assertThat(second.path("verdict").asString()).isEqualTo("FAIL");
    }
}
