package dev.lunchrush.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the scale section reads of the machine (the disk of the log and of each service, the heap of a JVM) and which
 * replay's figure it reports.
 */
class ScaleSectionTests {

    @Test
    void theLogIsTheOrdersSegmentsOnEveryBrokerAndEachServiceItsOwnDirectory(@TempDir Path run) throws IOException {
        write(run.resolve("kafka/data/orders-0/00000000000000000000.log"), 3000);
        write(run.resolve("kafka/data/orders-0/00000000000000000000.index"), 10_000);
        write(run.resolve("kafka/data/orders-1/00000000000000004000.log"), 500);
        write(run.resolve("kafka/data/orders.dlq-0/00000000000000000000.log"), 900);
        write(run.resolve("kafka/data/__transaction_state-0/00000000000000000000.log"), 800);
        write(run.resolve("kafka-2/data/orders-2/00000000000000000000.log"), 1500);
        write(run.resolve("data/order-service/store.mv.db"), 700);
        write(run.resolve("data/kitchen-screen/journal/segment-1"), 200);
        write(run.resolve("kafka.pid"), 5);

        Map<String, Long> disk = ScaleSection.disk(run);

        assertThat(disk).containsEntry("the log (Kafka)", 5000L).containsEntry("order-service", 700L)
                .containsEntry("kitchen-screen", 200L).containsEntry("analytics-dashboard", 0L);
        assertThat(disk.keySet()).first().isEqualTo("the log (Kafka)");
    }

    @Test
    void theHeapIsWhatItsGenerationsOrG1sHeapSayIsUsed() {
        String serial = """
                12345:
                 def new generation   total 14784K, used 1024K [0x0000000687400000, 0x000000068f200000)
                  eden space 13184K,   6% used [0x0000000687400000, 0x0000000687a0d748, 0x000000068d8e0000)
                 tenured generation   total 122880K, used 30720K [0x000000068f200000, 0x0000000696800000)
                 Metaspace       used 73K, committed 320K, reserved 1114112K
                """;
        String g1 = """
                12346:
                 garbage-first heap   total 262144K, used 51200K [0x0000000687400000, 0x0000000800000000)
                  region size 4096K, 1 young (4096K), 0 survivors (0K)
                 Metaspace       used 73K, committed 320K, reserved 1114112K
                """;

        assertThat(HeapAfterGc.usedMb(serial)).isEqualTo(31.0);
        assertThat(HeapAfterGc.usedMb(g1)).isEqualTo(50.0);
        assertThat(HeapAfterGc.usedMb("12347: Could not attach")).isNull();
    }

    @Test
    void theReplayFigureIsTheMedianOfTheMeasuredReplays() {
        JsonMapper json = JsonMapper.builder().build();
        List<JsonNode> replays = List.of(json.readTree("{\"id\":\"a\",\"ratePerSecond\":500000}"),
                json.readTree("{\"id\":\"b\",\"ratePerSecond\":300000}"),
                json.readTree("{\"id\":\"c\",\"ratePerSecond\":420000}"));

        assertThat(ScaleSection.median(replays).path("id").asString()).isEqualTo("c");
        assertThat(ScaleSection.median(replays.subList(0, 1)).path("id").asString()).isEqualTo("a");
    }

    private static void write(Path file, int bytes) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[bytes]);
    }
}
