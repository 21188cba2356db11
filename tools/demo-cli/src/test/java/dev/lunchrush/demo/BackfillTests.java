package dev.lunchrush.demo;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.load.backfill.BackfillRun;
import dev.lunchrush.localstack.access.ServiceClient;

import static org.assertj.core.api.Assertions.assertThat;

class BackfillTests {

    private static final String MENU = """
            {"kitchens":[{"id":"k1","name":"Noodle Bar","dishes":["pad-thai","ramen","gyoza"]},
                         {"id":"k2","name":"Pizza","dishes":["margherita","calzone"]}]}""";

    @Test
    void importsPastDaysInBatchesOfAtMost1000AsTheAdmin() throws Exception {
        AtomicInteger imports = new AtomicInteger();
        try (StubService orderService = new StubService(request -> switch (request.path()) {
            case "/menu" -> new StubService.Answer(200, MENU);
            case "/admin/orders/import" -> {
                // the first import is refused once as unavailable: the batch is sent again
                if (imports.getAndIncrement() == 0) {
                    yield new StubService.Answer(503, "{\"detail\":\"Kafka is away\"}");
                }
                int size = ServiceClient.JSON.readTree(request.body()).size();
                yield new StubService.Answer(200, "{\"imported\":" + size + "}");
            }
            default -> new StubService.Answer(404, "");
        })) {
            StringWriter out = new StringWriter();
            CommandLine commandLine = Demo.commandLine();
            commandLine.setOut(new PrintWriter(out, true));
            // one batch at a time, so that the refused one is the first request and its retry the second
            int exit = commandLine.execute("backfill", "--days", "2", "--orders-per-day", "1500", "--zone", "Europe/Paris",
                    "--seed", "1", "--in-flight", "1", "--order-service", orderService.url());

            assertThat(exit).isEqualTo(0);
            List<StubService.Request> batches = orderService.requests().stream()
                    .filter(request -> request.path().equals("/admin/orders/import")).toList();
            assertThat(batches).hasSize(5);
            assertThat(batches).allSatisfy(batch -> assertThat(batch.authorization())
                    .isEqualTo(ServiceClient.basic("admin", "test-admin-secret")));
            long total = 0;
            Instant now = Instant.now();
            LocalDate today = LocalDate.now(ZoneId.of("Europe/Paris"));
            for (StubService.Request batch : batches.subList(1, batches.size())) {
                JsonNode orders = ServiceClient.JSON.readTree(batch.body());
                assertThat(orders.size()).isLessThanOrEqualTo(1000);
                total += orders.size();
                for (JsonNode order : orders) {
                    Instant placedAt = Instant.parse(order.path("placedAt").asString());
                    assertThat(placedAt).isBefore(now);
                    assertThat(placedAt.atZone(ZoneId.of("Europe/Paris")).toLocalDate())
                            .isBetween(today.minusDays(2), today.minusDays(1));
                    assertThat(order.path("items").size()).isPositive();
                    assertThat(order.path("kitchenId").asString()).isIn("k1", "k2");
                }
            }
            assertThat(total).isEqualTo(3000);
            // the refused batch was sent again as it was: the same body under the same key
            assertThat(batches.get(0).body()).isEqualTo(batches.get(1).body());
            assertThat(batches.get(0).idempotencyKey()).isEqualTo(batches.get(1).idempotencyKey())
                    .matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
            assertThat(batches.subList(1, batches.size())).extracting(StubService.Request::idempotencyKey).doesNotHaveDuplicates();
            assertThat(out.toString()).contains("Imported 3,000 orders").contains("12:00")
                    .contains("batch 1 of 2 of " + today.minusDays(2) + ": order-service answered POST /admin/orders/import "
                            + "with 503: Kafka is away; sending it again (attempt 2)");
        }
    }

    /**
     * The order service's import as far as keys go: a new key writes the batch, the same key and body again gets the
     * stored answer with {@code Idempotent-Replayed: true} and writes nothing, the same key with another body is 422.
     */
    private static final class IdempotentImport implements java.util.function.Function<StubService.Request, StubService.Answer> {

        final Map<String, String> bodies = new ConcurrentHashMap<>();
        final AtomicLong written = new AtomicLong();
        /** Keys whose first attempt is written but answered 503, as when the answer is lost on its way. */
        final Set<String> loseFirstAnswer = ConcurrentHashMap.newKeySet();

        @Override
        public StubService.Answer apply(StubService.Request request) {
            if (request.path().equals("/menu")) {
                return new StubService.Answer(200, MENU);
            }
            if (!request.path().equals("/admin/orders/import")) {
                return new StubService.Answer(404, "");
            }
            int size = ServiceClient.JSON.readTree(request.body()).size();
            String answer = "{\"imported\":" + size + "}";
            String first = bodies.putIfAbsent(request.idempotencyKey(), request.body());
            if (first == null) {
                written.addAndGet(size);
                return loseFirstAnswer.remove(request.idempotencyKey())
                        ? new StubService.Answer(503, "{\"detail\":\"the answer did not arrive\"}")
                        : new StubService.Answer(200, answer);
            }
            if (first.equals(request.body())) {
                return new StubService.Answer(200, answer, Map.of("Idempotent-Replayed", "true"));
            }
            return new StubService.Answer(422, "{\"detail\":\"the Idempotency-Key '" + request.idempotencyKey()
                    + "' was used before for a different request\"}");
        }
    }

    private static List<StubService.Request> imports(StubService service) {
        return service.requests().stream().filter(request -> request.path().equals("/admin/orders/import")).toList();
    }

    private record Run(int exit, String out, String err) {
    }

    private static Run backfill(StubService service, String... options) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = Demo.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        List<String> args = new java.util.ArrayList<>(List.of("backfill", "--days", "2", "--orders-per-day", "1500",
                "--zone", "Europe/Paris", "--order-service", service.url()));
        args.addAll(List.of(options));
        int exit = commandLine.execute(args.toArray(String[]::new));
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void theSameSeedAgainWritesNothingAndSaysSoAndAgainWritesTheSameOrdersOnceMore() throws Exception {
        IdempotentImport service = new IdempotentImport();
        try (StubService orderService = new StubService(service)) {
            Run first = backfill(orderService, "--seed", "42");
            List<StubService.Request> firstBatches = imports(orderService);
            assertThat(first.exit()).as(first.err()).isZero();
            assertThat(service.written).hasValue(3000);
            assertThat(first.out()).contains("Imported 3,000 orders").doesNotContain("Already in the log");

            Run second = backfill(orderService, "--seed", "42");
            List<StubService.Request> secondBatches = imports(orderService).subList(firstBatches.size(),
                    imports(orderService).size());
            assertThat(second.exit()).as(second.err()).isZero();
            // the batches under way together arrive in any order
            assertThat(secondBatches).extracting(StubService.Request::body)
                    .containsExactlyInAnyOrderElementsOf(firstBatches.stream().map(StubService.Request::body).toList());
            assertThat(secondBatches).extracting(StubService.Request::idempotencyKey)
                    .containsExactlyInAnyOrderElementsOf(firstBatches.stream().map(StubService.Request::idempotencyKey).toList());
            assertThat(service.written).as("nothing written twice").hasValue(3000);
            assertThat(second.out()).contains("Imported 0 orders").contains("Already in the log: 3,000 orders (4 batches");

            int before = imports(orderService).size();
            Run again = backfill(orderService, "--seed", "42", "--again");
            List<StubService.Request> againBatches = imports(orderService).subList(before, imports(orderService).size());
            assertThat(again.exit()).as(again.err()).isZero();
            assertThat(againBatches).extracting(StubService.Request::body)
                    .containsExactlyInAnyOrderElementsOf(firstBatches.stream().map(StubService.Request::body).toList());
            assertThat(againBatches).extracting(StubService.Request::idempotencyKey)
                    .doesNotContainAnyElementsOf(firstBatches.stream().map(StubService.Request::idempotencyKey).toList());
            assertThat(service.written).as("the same orders once more").hasValue(6000);
            assertThat(again.out()).contains("--again: new Idempotency-Keys").contains("Imported 3,000 orders");
        }
    }

    @Test
    void withoutASeedOneIsDrawnAndPrintedAndRunningWithItWritesNothingTwice() throws Exception {
        IdempotentImport service = new IdempotentImport();
        try (StubService orderService = new StubService(service)) {
            Run first = backfill(orderService);
            assertThat(first.exit()).as(first.err()).isZero();
            java.util.regex.Matcher printed = java.util.regex.Pattern
                    .compile("seed (\\d+): run again with --seed \\1 to repeat, nothing is written twice").matcher(first.out());
            assertThat(printed.find()).as(first.out()).isTrue();

            Run second = backfill(orderService, "--seed", printed.group(1));

            assertThat(second.exit()).as(second.err()).isZero();
            assertThat(second.out()).contains("Already in the log: 3,000 orders").doesNotContain("seed " + printed.group(1) + ":");
            assertThat(service.written).hasValue(3000);
        }
    }

    @Test
    void aBatchWrittenByAnAttemptWhoseAnswerWasLostIsNotWrittenAgainByTheRetry() throws Exception {
        IdempotentImport service = new IdempotentImport();
        service.loseFirstAnswer.add(BackfillRun.of(5, ZoneId.of("Europe/Paris"), 1500, 1000)
                .idempotencyKey(LocalDate.now(ZoneId.of("Europe/Paris")).minusDays(1), 1));
        try (StubService orderService = new StubService(service)) {
            Run run = backfill(orderService, "--seed", "5");

            assertThat(run.exit()).as(run.err()).isZero();
            assertThat(imports(orderService)).hasSize(5);
            assertThat(service.written).hasValue(3000);
            assertThat(run.out()).contains("Imported 3,000 orders").contains("Written by an attempt whose answer did not "
                    + "arrive: 1 batches").doesNotContain("Already in the log");
        }
    }

    @Test
    void aBatchTheServiceRefusedIsNotSentAgain() throws Exception {
        IdempotentImport service = new IdempotentImport();
        try (StubService orderService = new StubService(service)) {
            assertThat(backfill(orderService, "--seed", "9").exit()).isZero();
            int before = imports(orderService).size();
            // the same keys with other orders (another batch size would change the keys too: the menu changed)
            try (StubService changedMenu = new StubService(request -> request.path().equals("/menu")
                    ? new StubService.Answer(200, MENU.replace("gyoza", "dumplings")) : service.apply(request))) {
                Run run = backfill(changedMenu, "--seed", "9");

                assertThat(run.exit()).isEqualTo(1);
                // the batches under way when the first 422 came back (four by default) each went once
                assertThat(imports(changedMenu)).as("a 422 is not sent again").hasSizeBetween(1, 4)
                        .extracting(StubService.Request::idempotencyKey).doesNotHaveDuplicates();
                assertThat(run.err()).contains("backfill stopped at batch 1 of 2 of")
                        .contains("with 422: the Idempotency-Key").contains("has the menu changed");
            }
            assertThat(imports(orderService)).hasSize(before);
        }
    }

    @Test
    void aRunTheDisksOfTheLogCannotHoldIsRefusedBeforeAnythingIsWritten() throws Exception {
        // 3,000 orders of about 1 KB: about 4.5 MB with the margin
        for (long free : new long[] {2_000_000L, 60_000_000L}) {
            String room = """
                    {"topic":"orders","logDirs":[
                      {"broker":1,"path":"/var/lib/kafka/data","usableBytes":%d,"totalBytes":%d,"partitions":3}]}"""
                    .formatted(free, 10 * free);
            try (StubService orderService = new StubService(request -> switch (request.path()) {
                case "/menu" -> new StubService.Answer(200, MENU);
                case "/admin/orders/import/room" -> new StubService.Answer(200, room);
                case "/admin/orders/import" -> new StubService.Answer(200,
                        "{\"imported\":" + ServiceClient.JSON.readTree(request.body()).size() + "}");
                default -> new StubService.Answer(404, "");
            })) {
                Run run = backfill(orderService, "--seed", "5");

                StubService.Request asked = orderService.requests().stream()
                        .filter(request -> request.path().equals("/admin/orders/import/room")).findFirst().orElseThrow();
                assertThat(asked.authorization()).isEqualTo(ServiceClient.basic("admin", "test-admin-secret"));
                if (free < 4_000_000L) {
                    assertThat(run.exit()).isEqualTo(1);
                    assertThat(imports(orderService)).as("nothing written").isEmpty();
                    assertThat(run.err()).contains("broker 1's log directory /var/lib/kafka/data has 2.0 MB free; 3,000 orders")
                            .contains("nothing was written");
                }
                else {
                    assertThat(run.exit()).as(run.err()).isZero();
                    assertThat(imports(orderService)).hasSize(4);
                    assertThat(run.out()).containsPattern("The log's disks: 60.0 MB free at least; this run needs about "
                            + "[45]\\.\\d MB \\(\\d{3,4} B an order, and a margin\\)");
                }
            }
        }
    }

    @Test
    void aBatchTheServiceCannotTakeIsSentAgainUntilTheRetryBudgetIsSpent() throws Exception {
        try (StubService orderService = new StubService(request -> request.path().equals("/menu")
                ? new StubService.Answer(200, MENU) : new StubService.Answer(503, "{\"detail\":\"Kafka is away\"}"))) {
            long started = System.nanoTime();
            Run run = backfill(orderService, "--seed", "3", "--retry-for", "3s", "--in-flight", "1");
            double seconds = (System.nanoTime() - started) / 1e9;

            assertThat(run.exit()).isEqualTo(1);
            List<StubService.Request> attempts = imports(orderService);
            // at 0, 1 and 3 s: the backoff's 1 s and 2 s, the second cut to what is left of the budget
            assertThat(attempts).hasSizeBetween(2, 3);
            assertThat(attempts).extracting(StubService.Request::idempotencyKey).containsOnly(attempts.get(0).idempotencyKey());
            assertThat(attempts).extracting(StubService.Request::body).containsOnly(attempts.get(0).body());
            assertThat(seconds).isBetween(2.5, 10.0);
            assertThat(run.err()).contains("backfill stopped at batch 1 of 2 of").contains("with 503: Kafka is away")
                    .containsPattern("after [23] attempts in [34] s").contains("the same command with --seed 3 writes only what is missing");
        }
    }

    @Test
    void sendsAsManyBatchesAtOnceAsAskedAndCountsEachOnce() throws Exception {
        IdempotentImport service = new IdempotentImport();
        // the first three batches are held until all three are in: with --in-flight 3 they come together
        CountDownLatch together = new CountDownLatch(3);
        AtomicInteger underWay = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        AtomicInteger heldTooLong = new AtomicInteger();
        try (StubService orderService = new StubService(request -> {
            if (!request.path().equals("/admin/orders/import")) {
                return service.apply(request);
            }
            mostAtOnce.accumulateAndGet(underWay.incrementAndGet(), Math::max);
            try {
                together.countDown();
                if (!together.await(5, TimeUnit.SECONDS)) {
                    heldTooLong.incrementAndGet();
                }
                return service.apply(request);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return new StubService.Answer(500, "");
            }
            finally {
                underWay.decrementAndGet();
            }
        })) {
            Run run = backfill(orderService, "--seed", "11", "--in-flight", "3");

            assertThat(run.exit()).as(run.err()).isZero();
            assertThat(heldTooLong).as("the first three batches were under way together").hasValue(0);
            assertThat(mostAtOnce).hasValue(3);
            assertThat(imports(orderService)).hasSize(4).extracting(StubService.Request::idempotencyKey)
                    .doesNotHaveDuplicates();
            assertThat(service.written).hasValue(3000);
            assertThat(run.out()).contains("Imported 3,000 orders");
        }
    }

    @Test
    void refusesMoreDaysThanTheLogKeeps() {
        StringWriter err = new StringWriter();
        CommandLine commandLine = Demo.commandLine();
        commandLine.setErr(new PrintWriter(err, true));
        assertThat(commandLine.execute("backfill", "--days", "30", "--orders-per-day", "10", "--order-service",
                "http://127.0.0.1:9")).isEqualTo(2);
        assertThat(err.toString()).contains("--days must be between 1 and 13");
        assertThat(commandLine.execute("backfill", "--days", "1", "--orders-per-day", "10", "--zone", "Mars/Olympus",
                "--order-service", "http://127.0.0.1:9")).isEqualTo(2);
        assertThat(err.toString()).contains("'Mars/Olympus' is not a time zone");
        assertThat(commandLine.execute("backfill", "--days", "1", "--orders-per-day", "10", "--in-flight", "0",
                "--order-service", "http://127.0.0.1:9")).isEqualTo(2);
        assertThat(err.toString()).contains("--in-flight must be between 1 and 16, not 0");
    }
}
