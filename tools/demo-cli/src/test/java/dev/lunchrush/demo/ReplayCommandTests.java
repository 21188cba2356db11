package dev.lunchrush.demo;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import dev.lunchrush.localstack.access.ServiceClient;

import static org.assertj.core.api.Assertions.assertThat;

class ReplayCommandTests {

    private static final String REPORT = """
            {"date":"2026-11-26","zone":"Europe/Paris","totalOrders":1200,
             "ordersPerKitchen":{"k1":700,"k2":500},
             "ordersPerHour":{"00":0,"01":0,"02":0,"03":0,"04":0,"05":0,"06":0,"07":0,"08":10,"09":20,"10":40,
               "11":100,"12":600,"13":200,"14":30,"15":20,"16":20,"17":30,"18":40,"19":60,"20":20,"21":10,"22":0,"23":0},
             "portionsPerDish":{"pad-thai":900,"ramen":1100},"totalPortions":2000,"distinctCustomers":1100,
             "busiestHour":"12","averageItemsPerOrder":1.67}""";

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = Demo.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    @Test
    void startsTheReplayFollowsItAndPrintsTheReport() throws Exception {
        AtomicInteger polls = new AtomicInteger();
        try (StubService replayer = new StubService(request -> {
            if (request.method().equals("POST") && request.path().equals("/admin/replays")) {
                return new StubService.Answer(202, "{\"id\":\"r1\",\"state\":\"RUNNING\",\"read\":0,\"expected\":1200}");
            }
            if (request.path().equals("/api/replays/r1")) {
                int poll = polls.incrementAndGet();
                return poll < 3
                        ? new StubService.Answer(200, "{\"id\":\"r1\",\"state\":\"RUNNING\",\"read\":" + 400 * poll
                                + ",\"expected\":1200,\"ratePerSecond\":800,\"secondsLeft\":1}")
                        : new StubService.Answer(200, "{\"id\":\"r1\",\"state\":\"DONE\",\"read\":1200,\"expected\":1200,"
                                + "\"ratePerSecond\":800,\"elapsedMillis\":1500}");
            }
            if (request.path().startsWith("/api/reports/2026-11-26")) {
                return new StubService.Answer(200, REPORT);
            }
            return new StubService.Answer(404, "");
        })) {
            int exit = run("replay", "2026-11-26", "--zone", "Europe/Paris", "--report-replayer", replayer.url());

            assertThat(exit).as(err.toString()).isEqualTo(0);
            StubService.Request start = replayer.requests().get(0);
            assertThat(start.authorization()).isEqualTo(ServiceClient.basic("admin", "test-admin-secret"));
            assertThat(ServiceClient.JSON.readTree(start.body()).path("zone").asString()).isEqualTo("Europe/Paris");
            assertThat(replayer.requests()).anySatisfy(request ->
                    assertThat(request.path()).isEqualTo("/api/reports/2026-11-26?zone=Europe%2FParis"));
            String text = out.toString();
            assertThat(text).containsPattern("total orders\\s+1,200")
                    .containsPattern("k1\\s+700")
                    .containsPattern("12:00\\s+600 #{50}\\n")
                    .containsPattern("ramen\\s+1,100")
                    .contains("CSV:  " + replayer.url() + "/api/reports/2026-11-26.csv?zone=Europe%2FParis");
        }
    }

    @Test
    void aFailedReplayIsAFailure() throws Exception {
        try (StubService replayer = new StubService(request -> request.method().equals("POST")
                ? new StubService.Answer(409, "{\"detail\":\"a replay of 2026-11-26 is already running\"}")
                : new StubService.Answer(404, ""))) {
            assertThat(run("replay", "2026-11-26", "--report-replayer", replayer.url())).isEqualTo(1);
            assertThat(err.toString()).contains("409").contains("already running");
        }
    }

    @Test
    void malformedDatesZonesAndFutureDaysAreRefusedAndNothingIsSent() throws Exception {
        try (StubService replayer = new StubService(request -> new StubService.Answer(500, ""))) {
            for (List<String> args : List.of(List.of("2026-13-01"), List.of("26/11/2026"), List.of("Yesterday"),
                    List.of("tomorrow"),
                    List.of("2026-11-26", "--zone", "Nowhere/Land"),
                    List.of(LocalDate.now().plusDays(3).toString()))) {
                List<String> full = new java.util.ArrayList<>(List.of("replay"));
                full.addAll(args);
                full.addAll(List.of("--report-replayer", replayer.url()));
                assertThat(run(full.toArray(String[]::new))).as(String.join(" ", args)).isEqualTo(2);
            }
            assertThat(replayer.requests()).isEmpty();
            assertThat(err.toString()).contains("is not a date; write it as YYYY-MM-DD")
                    .contains("'Nowhere/Land' is not a time zone").contains("is in the future");
        }
    }

    @Test
    void yesterdayIsTheDayBeforeTodayInTheZone() throws Exception {
        // a zone 14 hours ahead of UTC: for most of the UTC day its yesterday is UTC's today
        ZoneId zone = ZoneId.of("Pacific/Kiritimati");
        try (StubService replayer = new StubService(request -> request.method().equals("POST")
                ? new StubService.Answer(409, "{\"detail\":\"a replay of that day is already running\"}")
                : new StubService.Answer(404, ""))) {
            LocalDate before = LocalDate.now(zone).minusDays(1);
            assertThat(run("replay", "yesterday", "--zone", zone.getId(), "--report-replayer", replayer.url())).isEqualTo(1);
            LocalDate after = LocalDate.now(zone).minusDays(1);

            assertThat(replayer.requests()).hasSize(1);
            var body = ServiceClient.JSON.readTree(replayer.requests().get(0).body());
            assertThat(LocalDate.parse(body.path("date").asString())).isIn(before, after);
            assertThat(body.path("zone").asString()).isEqualTo(zone.getId());
        }
    }

    @Test
    void theHelpGivesADayTheLogHolds() {
        assertThat(run("replay", "--help")).isZero();
        // picocli wraps the description at 80 columns
        assertThat(out.toString().replaceAll("\\s+", " ")).contains("e.g. yesterday's date").contains("./demo replay $(date -u -d yesterday +%F)")
                .doesNotContain("2026-");
    }
}
