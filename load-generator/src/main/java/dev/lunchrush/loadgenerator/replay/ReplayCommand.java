package dev.lunchrush.loadgenerator.replay;

import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.loadgenerator.AdminPassword;
import dev.lunchrush.loadgenerator.Demo;
import dev.lunchrush.loadgenerator.DemoException;
import dev.lunchrush.loadgenerator.Endpoints;
import dev.lunchrush.loadgenerator.Progress;
import dev.lunchrush.loadgenerator.RepoRoot;
import dev.lunchrush.loadgenerator.ServiceClient;
import dev.lunchrush.loadgenerator.backfill.BackfillCommand;
import dev.lunchrush.loadgenerator.backfill.HourChart;
import dev.lunchrush.loadgenerator.Pause;

/** {@code ./demo replay YYYY-MM-DD}: the accountant's "last Thursday again". */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Replay a past day from the log (POST /admin/replays on the report replayer), with a progress "
                + "bar while it reads, then print the day's report: totals, orders per kitchen, per hour, portions per dish.",
            "Example: ./demo replay 2026-11-26 --zone Europe/Paris"})
public class ReplayCommand implements Callable<Integer> {

    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration UNANSWERED_LIMIT = Duration.ofSeconds(30);

    @ParentCommand
    private Demo demo;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "YYYY-MM-DD", converter = DateConverter.class, description = "the day to replay")
    private LocalDate date;

    @Option(names = "--zone", paramLabel = "Z", defaultValue = "UTC", converter = BackfillCommand.ZoneConverter.class,
            description = "the zone whose midnight bounds the day (default: ${DEFAULT-VALUE})")
    private ZoneId zone = ZoneId.of("UTC");

    @Override
    public Integer call() {
        if (date.isAfter(LocalDate.now(zone))) {
            throw DemoException.badInput(date + " is in the future in " + zone + ": there is nothing to replay yet");
        }
        PrintWriter out = spec.commandLine().getOut();
        Endpoints endpoints = demo.endpoints();
        ServiceClient replayer = new ServiceClient("report-replayer", endpoints.reportReplayer(),
                () -> AdminPassword.require(RepoRoot.find()));
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("date", date.toString());
        request.put("zone", zone.getId());
        JsonNode status = replayer.post("/admin/replays", request, true);
        String id = ServiceClient.text(status, "id");
        if (id.isEmpty()) {
            throw new DemoException("report-replayer accepted the replay but gave no id: " + status);
        }
        out.printf("Replaying %s (%s), replay %s%n", date, zone, id);
        out.flush();
        status = follow(replayer, id, status);
        String state = ServiceClient.text(status, "state");
        if (!"DONE".equals(state)) {
            String error = ServiceClient.text(status, "error");
            throw new DemoException("replay " + id + " " + state + (error.isEmpty() ? "" : ": " + error));
        }
        out.printf("Read %,d records in %.1f s (%,.0f records/s).%n%n", ServiceClient.number(status, "read"),
                ServiceClient.number(status, "elapsedMillis") / 1000.0, ServiceClient.decimal(status, "ratePerSecond"));
        String zoneQuery = "?zone=" + URLEncoder.encode(zone.getId(), StandardCharsets.UTF_8);
        JsonNode report = replayer.get("/api/reports/" + date + zoneQuery);
        out.print(render(report));
        out.println();
        out.println("CSV:  " + Endpoints.resolve(endpoints.reportReplayer(), "/api/reports/" + date + ".csv" + zoneQuery));
        out.println("JSON: " + Endpoints.resolve(endpoints.reportReplayer(), "/api/reports/" + date + zoneQuery));
        out.println("Page: " + Endpoints.resolve(endpoints.reportReplayer(), "/"));
        out.flush();
        return 0;
    }

    /** Polls the replay until it is over, with a progress bar of records read against expected. */
    private JsonNode follow(ServiceClient replayer, String id, JsonNode first) {
        JsonNode status = first;
        long lastAnswer = System.nanoTime();
        try (ProgressBar bar = Progress.bar("replay", Math.max(1, ServiceClient.number(first, "expected")),
                spec.commandLine().getErr())) {
            while (true) {
                long expected = ServiceClient.number(status, "expected");
                long read = ServiceClient.number(status, "read");
                if (expected > 0 && expected != bar.getMax()) {
                    bar.maxHint(expected);
                }
                bar.stepTo(Math.min(read, Math.max(expected, read)));
                bar.setExtraMessage(extra(status));
                String state = ServiceClient.text(status, "state");
                if (!"RUNNING".equals(state) && !state.isEmpty()) {
                    if ("DONE".equals(state)) {
                        bar.stepTo(Math.max(read, 1));
                        bar.maxHint(Math.max(read, 1));
                    }
                    return status;
                }
                Pause.sleep(POLL);
                Optional<JsonNode> next = replayer.tryGet("/api/replays/" + id, Duration.ofSeconds(5));
                if (next.isPresent()) {
                    status = next.get();
                    lastAnswer = System.nanoTime();
                }
                else if (System.nanoTime() - lastAnswer > UNANSWERED_LIMIT.toNanos()) {
                    throw new DemoException("report-replayer stopped answering about replay " + id + " for "
                            + UNANSWERED_LIMIT.toSeconds() + " s; see ./demo status");
                }
            }
        }
    }

    private static String extra(JsonNode status) {
        double rate = ServiceClient.decimal(status, "ratePerSecond");
        JsonNode left = status.path("secondsLeft");
        String time = left.isNumber() ? "%.0f s left".formatted(left.asDouble()) : "";
        return " %,.0f/s %s".formatted(rate, time);
    }

    /** The report as text: totals, per kitchen, per hour as bars, per dish, and the rest. */
    static String render(JsonNode report) {
        StringBuilder text = new StringBuilder();
        text.append("Report for %s (%s)%n".formatted(ServiceClient.text(report, "date"), ServiceClient.text(report, "zone")));
        text.append("  total orders      %,d%n".formatted(ServiceClient.number(report, "totalOrders")));
        if (report.has("totalPortions")) {
            text.append("  total portions    %,d%n".formatted(ServiceClient.number(report, "totalPortions")));
        }
        if (report.has("distinctCustomers")) {
            text.append("  customers         %,d%n".formatted(ServiceClient.number(report, "distinctCustomers")));
        }
        if (report.has("averageItemsPerOrder")) {
            text.append("  portions/order    %.2f%n".formatted(ServiceClient.decimal(report, "averageItemsPerOrder")));
        }
        for (String field : List.of("busiestHour", "firstOrderAt", "lastOrderAt")) {
            String value = ServiceClient.text(report, field);
            if (!value.isEmpty()) {
                text.append("  %-17s %s%n".formatted(field.replaceAll("([A-Z])", " $1").toLowerCase(), value));
            }
        }
        text.append("%nOrders per kitchen:%n".formatted());
        sortedDescending(report.path("ordersPerKitchen"))
                .forEach(entry -> text.append("  %-20s %,10d%n".formatted(entry.getKey(), entry.getValue())));
        text.append("%nOrders per hour:%n".formatted());
        long[] perHour = new long[24];
        report.path("ordersPerHour").forEachEntry((hour, count) -> {
            try {
                int h = Integer.parseInt(hour);
                if (h >= 0 && h < 24) {
                    perHour[h] = count.asLong(0);
                }
            }
            catch (NumberFormatException ignored) {
                // not an hour key
            }
        });
        HourChart.render(perHour).lines().forEach(line -> text.append("  ").append(line).append(System.lineSeparator()));
        text.append("%nPortions per dish:%n".formatted());
        sortedDescending(report.path("portionsPerDish"))
                .forEach(entry -> text.append("  %-20s %,10d%n".formatted(entry.getKey(), entry.getValue())));
        return text.toString();
    }

    private static List<Map.Entry<String, Long>> sortedDescending(JsonNode counts) {
        List<Map.Entry<String, Long>> entries = new ArrayList<>();
        counts.forEachEntry((key, value) -> entries.add(Map.entry(key, value.asLong(0))));
        entries.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        return entries;
    }


    /** {@code YYYY-MM-DD}, strictly. */
    static final class DateConverter implements ITypeConverter<LocalDate> {
        @Override
        public LocalDate convert(String value) {
            try {
                return LocalDate.parse(value);
            }
            catch (DateTimeParseException ex) {
                throw new TypeConversionException("'" + value + "' is not a date; write it as YYYY-MM-DD, like 2026-11-26");
            }
        }
    }
}
