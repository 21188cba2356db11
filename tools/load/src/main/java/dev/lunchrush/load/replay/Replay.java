package dev.lunchrush.load.replay;

import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import me.tongfei.progressbar.ProgressBar;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.load.Progress;
import dev.lunchrush.localstack.access.AdminPassword;
import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.Endpoints;
import dev.lunchrush.localstack.access.ExitCodes;
import dev.lunchrush.localstack.access.Pause;
import dev.lunchrush.localstack.access.ServiceClient;
import dev.lunchrush.processes.RepoRoot;

/**
 * The accountant's "last Thursday again": a replay of a past day started on the report replayer
 * ({@code POST /admin/replays}), followed with a progress bar while it reads, then the day's report and where to
 * download it. {@code ./demo replay} runs it.
 */
public final class Replay {

    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration UNANSWERED_LIMIT = Duration.ofSeconds(30);

    private final LocalDate date;
    private final ZoneId zone;
    private final URI reportReplayer;
    private final PrintWriter out;
    private final PrintWriter err;

    /**
     * @param zone the zone whose midnight bounds the day
     * @param out where the report goes
     * @param err where the progress bar goes
     */
    public Replay(LocalDate date, ZoneId zone, URI reportReplayer, PrintWriter out, PrintWriter err) {
        this.date = date;
        this.zone = zone;
        this.reportReplayer = reportReplayer;
        this.out = out;
        this.err = err;
    }

    /** Replays the day and prints its report; a replay that does not finish ends with a {@link DemoException}. */
    public int run() {
        ServiceClient replayer = new ServiceClient("report-replayer", reportReplayer,
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
        out.print(ReplayReport.render(report));
        out.println();
        out.println("CSV:  " + Endpoints.resolve(reportReplayer, "/api/reports/" + date + ".csv" + zoneQuery));
        out.println("JSON: " + Endpoints.resolve(reportReplayer, "/api/reports/" + date + zoneQuery));
        out.println("Page: " + Endpoints.resolve(reportReplayer, "/"));
        out.flush();
        return ExitCodes.DONE;
    }

    /** Polls the replay until it is over, with a progress bar of records read against expected. */
    private JsonNode follow(ServiceClient replayer, String id, JsonNode first) {
        JsonNode status = first;
        long lastAnswer = System.nanoTime();
        try (ProgressBar bar = Progress.bar("replay", Math.max(1, ServiceClient.number(first, "expected")), err)) {
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

    /** The progress bar's tail: the rate, and the time left when the replayer knows it. */
    private static String extra(JsonNode status) {
        double rate = ServiceClient.decimal(status, "ratePerSecond");
        JsonNode left = status.path("secondsLeft");
        String time = left.isNumber() ? "%.0f s left".formatted(left.asDouble()) : "";
        return " %,.0f/s %s".formatted(rate, time);
    }
}
