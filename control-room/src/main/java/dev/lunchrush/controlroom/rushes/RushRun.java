package dev.lunchrush.controlroom.rushes;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import dev.lunchrush.lesson.ActLesson;
import dev.lunchrush.lesson.LessonArithmetic;
import dev.lunchrush.lesson.Lessons;
import dev.lunchrush.load.rush.LiveRow;
import dev.lunchrush.load.rush.Rush;
import dev.lunchrush.load.rush.RushListener;
import dev.lunchrush.load.rush.RushOutcome;
import dev.lunchrush.localstack.access.ServiceClient;

/**
 * One rush of the control room, told by the rush itself ({@link RushListener}) what it does: its rows second by
 * second, what it prints, and at the end the JSON of {@code ./demo rush --json} and the closing table.
 */
final class RushRun implements RushListener {

    /** Where a rush is: running, then done, failed (it could not run, or broke), or stopped (asked to). */
    enum State {
        running, done, failed, stopped
    }

    private static final Duration POLL = Duration.ofMillis(900);

    /** A difference within this many % is as predicted; within {@link #CLOSE} near it. */
    static final double HOLDS = 10;
    static final double CLOSE = 25;

    private final String id;
    private final JsonNode options;
    private final Instant startedAt;
    private final ConsoleLines console = new ConsoleLines(5000);
    private final PrintWriter out = new PrintWriter(console, true);
    private final List<LiveRow> rows = new ArrayList<>();
    private volatile State state = State.running;
    private volatile @Nullable Instant endedAt;
    private volatile String description = "";
    private volatile double budgetBytes = Double.NaN;
    private volatile @Nullable RushOutcome outcome;
    private volatile @Nullable String error;
    private volatile @Nullable Rush rush;
    private volatile boolean stopAsked;
    private volatile @Nullable ObjectNode readersAtEnd;

    RushRun(String id, JsonNode options, Instant startedAt) {
        this.id = id;
        this.options = options;
        this.startedAt = startedAt;
    }

    String id() {
        return id;
    }

    State state() {
        return state;
    }

    boolean running() {
        return state == State.running;
    }

    /** Where the rush prints. */
    PrintWriter out() {
        return out;
    }

    void attach(Rush running) {
        this.rush = running;
    }

    /** Asks the rush to stop; it reports what it measured so far, and ends {@code stopped}. */
    void stop() {
        stopAsked = true;
        Rush running = rush;
        if (running != null) {
            running.stop();
        }
    }

    @Override
    public void started(String profile, LessonArithmetic predicted) {
        description = profile;
        budgetBytes = predicted.budgetBytes();
    }

    @Override
    public void row(LiveRow row) {
        synchronized (rows) {
            rows.add(row);
        }
    }

    @Override
    public void finished(RushOutcome result) {
        outcome = result;
    }

    /**
     * Once the rush has reported: each reader's count since its start, read again every second until every order
     * placed has arrived where the act predicts it (between the two readers where they compete) or the counts stop moving, for at most {@code within}. The
     * rush itself stops watching once the slow reader is a second of orders behind; this says where the readers got.
     * An order whose answer timed out may have been written all the same: a reader may count more than were placed.
     */
    void settle(ServiceClient kitchen, ServiceClient dashboard, Duration within) {
        RushOutcome result = outcome;
        LiveRow last = lastRow();
        if (result == null || last == null || last.kitchenAtStart() < 0 || last.dashboardAtStart() < 0) {
            return;
        }
        String act = result.json().path("act").asString("").split("/")[0];
        ActLesson lesson = Lessons.forIdOrLog(act);
        long placed = result.json().path("orders").path("placed").asLong();
        long deadline = System.nanoTime() + within.toNanos();
        long[] before = null;
        while (true) {
            long got = LiveRow.received(act, kitchen.tryGet("/api/stats", POLL).orElse(null));
            long read = LiveRow.received(act, dashboard.tryGet("/api/stats", POLL).orElse(null));
            long[] now = {got < 0 ? -1 : got - last.kitchenAtStart(), read < 0 ? -1 : read - last.dashboardAtStart()};
            boolean every = lesson.everyOrderArrived(placed, now[0], now[1]);
            if (every || java.util.Arrays.equals(now, before) || System.nanoTime() > deadline) {
                readersAtEnd = JsonNodeFactory.instance.objectNode().put("placed", placed).put("kitchen", now[0])
                        .put("dashboard", now[1]).put("sharedQueue", lesson.readersCompete()).put("everyOrder", every);
                return;
            }
            before = now;
            try {
                TimeUnit.SECONDS.sleep(1);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private @Nullable LiveRow lastRow() {
        synchronized (rows) {
            return rows.isEmpty() ? null : rows.get(rows.size() - 1);
        }
    }

    /** The rush's thread is over: how it ended. */
    void ended(@Nullable RuntimeException failure, Instant at) {
        if (failure != null) {
            error = failure.getMessage() == null ? failure.toString() : failure.getMessage();
        }
        endedAt = at;
        state = failure != null || outcome == null ? State.failed : stopAsked ? State.stopped : State.done;
    }

    RushSummary summary() {
        synchronized (rows) {
            return new RushSummary(id, state.name(), description, rows.size(), rows.isEmpty() ? null : rows.get(rows.size() - 1));
        }
    }

    /**
     * {@code GET /api/rushes/{id}}: its state, its options, its rows so far, what it printed; at the end its closing
     * table with a verdict per line, and every field of the JSON that {@code ./demo rush --json} writes.
     */
    ObjectNode view(JsonMapper json) {
        ObjectNode view = json.createObjectNode();
        view.put("id", id);
        view.put("state", state.name());
        view.set("options", options);
        view.put("startedAt", startedAt.toString());
        Instant ended = endedAt;
        view.put("endedAt", ended == null ? null : ended.toString());
        view.put("description", description);
        if (Double.isNaN(budgetBytes)) {
            view.putNull("budgetBytes");
        }
        else {
            view.put("budgetBytes", budgetBytes);
        }
        view.put("error", error);
        view.set("header", json.valueToTree(LiveRow.HEADER));
        synchronized (rows) {
            view.set("rows", json.valueToTree(rows));
            LiveRow last = rows.isEmpty() ? null : rows.get(rows.size() - 1);
            if (last != null && last.feedBuffered() >= 0 && last.feedBufferedAtStart() >= 0) {
                // act 3: every order placed is in the feed, was delivered to the job, or was dropped
                long accounted = last.feedDelivered() + last.dropped() + last.feedBuffered() - last.feedBufferedAtStart();
                view.putObject("feedAccounting").put("placed", last.placed()).put("delivered", last.feedDelivered())
                        .put("dropped", last.dropped()).put("buffered", last.feedBuffered())
                        .put("bufferedAtStart", last.feedBufferedAtStart()).put("balanced", accounted == last.placed());
            }
        }
        view.set("console", json.valueToTree(console.lines()));
        view.set("readersAtEnd", readersAtEnd);
        RushOutcome result = outcome;
        if (result != null) {
            view.put("heading", result.heading());
            view.put("death", result.death());
            ArrayNode table = view.putArray("closingTable");
            long placed = result.json().path("orders").path("placed").asLong();
            JsonNode segments = result.json().path("segments");
            double lastRate = segments.isEmpty() ? 0 : segments.get(segments.size() - 1).path("ratePerSecond").asDouble();
            for (RushOutcome.LessonLine line : result.lesson()) {
                table.addObject().put("name", line.name()).put("unit", line.unit()).put("measured", line.measured())
                        .put("predicted", line.predicted()).put("difference", line.difference()).put("note", line.note())
                        .put("verdict", verdict(line, placed, lastRate));
            }
            view.setAll(result.json());
        }
        return view;
    }

    /**
     * A line's verdict: {@code holds} within {@value #HOLDS}% of the prediction, {@code close} within {@value #CLOSE}%,
     * {@code off} beyond; a prediction of 0 holds while the measure stays under a second of the rush's orders (or 1%
     * of them); nothing (empty) where there is nothing to compare.
     */
    static String verdict(RushOutcome.LessonLine line, long placed, double lastRate) {
        double difference = line.differencePercent();
        if (!Double.isNaN(difference)) {
            double size = Math.abs(difference);
            return size <= HOLDS ? "holds" : size <= CLOSE ? "close" : "off";
        }
        if (line.predictedValue() == 0 && !Double.isNaN(line.measuredValue())) {
            return Math.abs(line.measuredValue()) <= Math.max(Math.max(1, lastRate), placed / 100.0) ? "holds" : "off";
        }
        return "";
    }
}
