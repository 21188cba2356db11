package dev.lunchrush.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.ServiceClient;

/**
 * The suite's table as JSON ({@code --json}): the rate, whether the stack was a cluster, and a row per scenario;
 * a figure the scenario does not count is null.
 */
final class ChaosJson {

    private ChaosJson() {
    }

    static void write(Path file, double perSecond, boolean cluster, List<Result> results) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("ratePerSecond", perSecond);
        document.put("cluster", cluster);
        document.put("scenarios", results.stream().map(ChaosJson::row).toList());
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            ServiceClient.JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), document);
        }
        catch (IOException | RuntimeException ex) {
            throw new DemoException("could not write " + file + ": " + ex.getMessage());
        }
    }

    private static Map<String, Object> row(Result result) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("scenario", result.scenario());
        row.put("act", result.act());
        row.put("acknowledged", result.acknowledged());
        row.put("inLog", result.inLog() < 0 ? null : result.inLog());
        row.put("countedByKitchenScreen", result.kitchen() < 0 ? null : result.kitchen());
        row.put("countedByDashboard", result.dashboard() < 0 ? null : result.dashboard());
        row.put("lost", result.lost());
        row.put("duplicated", result.duplicated());
        row.put("refused503", result.refused());
        row.put("unknownOutcome", result.unknown());
        row.put("writtenWithout201", result.extra());
        row.put("slowestAnswerMillis", result.slowestMillis());
        row.put("verdict", result.verdict());
        row.put("notes", result.notes());
        row.put("failures", result.failures());
        return row;
    }
}
