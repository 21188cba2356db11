package dev.lunchrush.chaos;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import dev.lunchrush.events.Act;

/**
 * The faults of {@code ./demo chaos}, each under a running stream of orders (or, for {@code backfill-kafka-kill} and
 * {@code backfill-kafka-freeze}, a running backfill; for {@code hostile-clients}, hostile connections and probes of
 * every service), and what each is checked against.
 */
public enum Scenario {

    KAFKA_KILL("kafka-kill", "log", Oracle.LOG,
            "kill -9 of a Kafka broker, dead 10 s (20 s in a cluster), restarted on its data"),
    KAFKA_FREEZE("kafka-freeze", "log", Oracle.LOG,
            "SIGSTOP of a Kafka broker for 20 s, then SIGCONT: every request answered 201 or 503 within the timeout"),
    ORDER_SERVICE_KILL("order-service-kill", "log", Oracle.LOG, "kill -9 of the order service, restarted"),
    KITCHEN_SCREEN_KILL("kitchen-screen-kill", "log", Oracle.LOG, "kill -9 of the kitchen screen, restarted"),
    DASHBOARD_KILL("analytics-dashboard-kill", "log", Oracle.LOG, "kill -9 of the analytics dashboard, restarted"),
    POISON("poison", "log", Oracle.LOG,
            "bad bytes, wrong schema and oversized, on the log and on the three order queues"),
    RABBITMQ_RESTART_SHARED_QUEUE("rabbitmq-restart-shared-queue", "shared-queue", Oracle.SHARED_QUEUE,
            "act 1: RabbitMQ stopped for 10 s (rabbitmqctl stop_app) and started again"),
    RABBITMQ_RESTART_MEMORY_FEED("rabbitmq-restart-memory-feed", "memory-feed", Oracle.MEMORY_FEED,
            "act 3: RabbitMQ stopped for 10 s and started again while the kitchen queue and the feed fill"),
    BACKFILL_KAFKA_KILL("backfill-kafka-kill", "log", Oracle.REPLAY,
            "kill -9 of a Kafka broker in the middle of a backfill of " + BackfillFault.KILL_ORDERS
                    + " orders of yesterday, dead 10 s (20 s in a cluster), restarted; the day replayed before and after"),
    BACKFILL_KAFKA_FREEZE("backfill-kafka-freeze", "log", Oracle.REPLAY,
            "SIGSTOP of a Kafka broker " + BackfillFault.FREEZES + " times for " + BackfillFault.FREEZE.toSeconds()
                    + " s during a backfill of " + BackfillFault.FREEZE_ORDERS + " orders of yesterday, each when a "
                    + "batch is in the log whole and its commit not yet written; the day replayed before and after"),
    // last: it leaves every service as it found it only when they all hold, and the others need them
    HOSTILE_CLIENTS("hostile-clients", "log", Oracle.SERVICES,
            HostileClients.IDLE + " connections declaring a 64 KB order and sending nothing and " + HostileClients.SLOW
                    + " sending it a byte a second against the order service, a tenth of that against every other service, "
                    + "held " + HostileClients.HOLD.toSeconds() + " s after a warm-up of " + HostileClients.WARM_UP.toSeconds()
                    + " s, with pipelined garbage and 1 MB headers: every service lives and answers health and real orders "
                    + "within a second");

    /** How a scenario's outcome is judged. */
    enum Oracle {
        /** The log read back: every 201 in it once, each reader counting exactly it. */
        LOG,
        /** Every 201 reached the kitchen screen (by id) or the dashboard (by count). */
        SHARED_QUEUE,
        /** Every 201 reached the kitchen screen (by id) and the dashboard through the feed (by count). */
        MEMORY_FEED,
        /** The backfill exited 0 and the day, replayed, holds exactly its orders more than before. */
        REPLAY,
        /** Every service is the process it was, answered every probe within a second, and let go of hostile connections. */
        SERVICES
    }

    final String id;
    final Act act;
    final Oracle oracle;
    final String description;

    /** {@code act} as {@code ./demo act} names it: the fault suite is a client of the order service's API. */
    Scenario(String id, String act, Oracle oracle, String description) {
        this.id = id;
        this.act = Act.fromId(act);
        this.oracle = oracle;
        this.description = description;
    }

    /** The scenario of that id ({@code kafka-kill}); fails naming them all. */
    public static Scenario fromId(String id) {
        return Arrays.stream(values()).filter(scenario -> scenario.id.equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no scenario '" + id + "'; the scenarios are: " + ids()));
    }

    /** The scenarios {@code ./demo chaos} runs when none is named: all of them, in this order. */
    public static List<Scenario> suite() {
        return List.of(values());
    }

    /** Its name on the command line ({@code kafka-kill}). */
    public String id() {
        return id;
    }

    static String ids() {
        return Arrays.stream(values()).map(scenario -> scenario.id).collect(Collectors.joining(", "));
    }
}
