package dev.lunchrush.load.rush;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.lunchrush.lesson.ClosingLine;
import dev.lunchrush.lesson.Death;
import dev.lunchrush.lesson.RateProfile;
import dev.lunchrush.lesson.Snapshot;
import dev.lunchrush.localstack.access.ServiceClient;

import static dev.lunchrush.load.rush.Latencies.millis;

/**
 * The rush's {@code --json} file: the profile, the counts, the latencies, the generator's verdict, the death, the
 * lesson's table and every snapshot. The scenario tests and the README's figures read it; unknown figures are null.
 */
final class RushJson {

    private RushJson() {
    }

    static void write(RushResult result, Path file) {
        ObjectNode root = toJson(result);
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, ServiceClient.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }

    /** The file's content. */
    static ObjectNode toJson(RushResult result) {
        ObjectNode root = ServiceClient.JSON.createObjectNode();
        RateProfile profile = result.profile();
        root.put("profile", profile.name());
        root.put("speed", profile.speed());
        root.put("act", result.act());
        ArrayNode segments = root.putArray("segments");
        for (RateProfile.Segment segment : profile.segments()) {
            segments.addObject().put("label", segment.label()).put("ratePerSecond", segment.ratePerSecond())
                    .put("seconds", segment.seconds());
        }
        orders(root.putObject("orders"), result.counters());
        ObjectNode latency = root.putObject("latencyMillis");
        latency.put("p50", millis(result.latency(), 50));
        latency.put("p99", millis(result.latency(), 99));
        latency.put("p999", millis(result.latency(), 99.9));
        latency.put("max", result.latency().getMaxValue() / 1000.0);
        ObjectNode generator = root.putObject("generator");
        generator.put("heldRate", result.verdict().held());
        generator.put("achievedRatePerSecond", result.verdict().achievedRate());
        generator.put("askedRatePerSecond", result.verdict().askedRate());
        generator.put("scheduleLagP99Millis", millis(result.lag(), 99));
        generator.put("lateSends", result.counters().lateSends.sum());
        ObjectNode measured = root.putObject("measuredRates");
        measured.put("in", result.measurement().inRate());
        measured.put("out", result.measurement().outRate());
        measured.put("eventBytes", result.measurement().eventBytes());
        Death death = result.death();
        if (death != null) {
            ObjectNode died = root.putObject("orderServiceDied");
            died.put("atSeconds", death.atSeconds());
            died.put("clock", death.clock());
            died.put("eventsLost", death.eventsLost());
            died.put("acceptedIntoFeed", death.acceptedIntoFeed());
            died.put("deliveredToJob", death.deliveredToJob());
            died.put("lastSeenBuffered", death.lastSeenBuffered());
        }
        else {
            root.putNull("orderServiceDied");
        }
        ArrayNode lesson = root.putArray("lesson");
        for (ClosingLine line : result.lines()) {
            ObjectNode node = lesson.addObject();
            node.put("name", line.name());
            node.put("unit", line.unit());
            putNumber(node, "measured", line.measured());
            putNumber(node, "predicted", line.predicted());
            putNumber(node, "differencePercent", line.differencePercent());
            node.put("note", line.note());
        }
        snapshots(root.putArray("snapshots"), result);
        return root;
    }

    private static void orders(ObjectNode orders, DriverCounters counters) {
        orders.put("sent", counters.scheduled.sum());
        orders.put("placed", counters.accepted.sum());
        orders.put("throttled", counters.throttled.sum());
        orders.put("retried", counters.retried.sum());
        orders.put("gaveUp", counters.gaveUp.sum());
        orders.put("unavailable", counters.unavailable.sum());
        orders.put("timeouts", counters.timeouts.sum());
        orders.put("connectionErrors", counters.errors.sum());
        orders.put("resentAfterDroppedConnection", counters.reconnects.sum());
        ObjectNode others = orders.putObject("otherStatuses");
        counters.otherStatuses.forEach((status, n) -> others.put(String.valueOf(status), n.sum()));
    }

    private static void snapshots(ArrayNode samples, RushResult result) {
        Snapshot base = result.snapshots().get(0);
        for (Snapshot snapshot : result.snapshots()) {
            ObjectNode node = samples.addObject();
            node.put("seconds", snapshot.elapsedSeconds());
            node.put("placed", snapshot.accepted() - base.accepted());
            putNumber(node, "read", result.measurement().read(snapshot));
            node.put("backlog", snapshot.dashboardBacklog());
            if (snapshot.orderService() != null) {
                node.put("feedBuffered", snapshot.orderService().feedBuffered());
                node.put("feedBufferedBytes", snapshot.orderService().feedBufferedBytes());
                node.put("heapUsedAfterGcBytes", snapshot.orderService().heapUsedAfterGc());
            }
            else {
                node.put("orderServiceDown", true);
            }
        }
    }

    private static void putNumber(ObjectNode node, String field, double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            node.putNull(field);
        }
        else {
            node.put(field, value);
        }
    }
}
