package dev.lunchrush.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.lunchrush.events.Topology;
import dev.lunchrush.localstack.StackControl;
import dev.lunchrush.localstack.access.Pause;
import dev.lunchrush.localstack.access.OrderServiceClient;

/**
 * The faults done under a running stream of orders: a Kafka broker killed ({@code kill -9}) or frozen
 * ({@code SIGSTOP}), a service killed and restarted, poison on the log and the order queues, RabbitMQ stopped and
 * started. In a cluster the broker is the second, else the only one. Each fault ends with the stack whole again.
 */
final class Faults {

    /** What the fault saw: notes for the table, and failures of the fault's own checks. */
    record Outcome(List<String> notes, List<String> failures) {
    }

    private static final Duration SERVICE_RESTART = Duration.ofSeconds(180);

    private final StackControl stack;
    private final OrderServiceClient orderService;
    private final String rabbitUser;
    private final String rabbitPassword;
    private final ScenarioConsole console;

    Faults(StackControl stack, OrderServiceClient orderService, String rabbitUser, String rabbitPassword, ScenarioConsole console) {
        this.stack = stack;
        this.orderService = orderService;
        this.rabbitUser = rabbitUser;
        this.rabbitPassword = rabbitPassword;
        this.console = console;
    }

    /** Does the scenario's fault while {@code stream} runs, and returns once the stack is whole again. */
    Outcome inject(Scenario scenario, OrderStream stream) {
        Outcome outcome = new Outcome(new ArrayList<>(), new ArrayList<>());
        String broker = stack.cluster() ? stack.kafkaBrokers().get(1) : stack.kafkaBrokers().get(0);
        switch (scenario) {
            case KAFKA_KILL -> killBroker(scenario, broker, stream, outcome);
            case KAFKA_FREEZE -> freezeBroker(scenario, broker, stream, outcome);
            case ORDER_SERVICE_KILL -> killService(scenario, "order-service", outcome);
            case KITCHEN_SCREEN_KILL -> killService(scenario, "kitchen-screen", outcome);
            case DASHBOARD_KILL -> killService(scenario, "analytics-dashboard", outcome);
            case POISON -> poison(scenario);
            case RABBITMQ_RESTART_SHARED_QUEUE, RABBITMQ_RESTART_MEMORY_FEED -> restartRabbitMq(scenario, stream, outcome);
            case BACKFILL_KAFKA_KILL, BACKFILL_KAFKA_FREEZE -> throw new IllegalStateException("the backfill's faults are BackfillFault's");
        }
        return outcome;
    }

    /**
     * {@code kill -9} of the broker, dead 10 s (20 s in a cluster), restarted on its data. In a cluster the others
     * must go on taking orders in the second half of its death.
     */
    private void killBroker(Scenario scenario, String broker, OrderStream stream, Outcome outcome) {
        Duration dead = stack.cluster() ? Duration.ofSeconds(20) : Duration.ofSeconds(10);
        long pid = stack.kill(broker);
        console.say(scenario, "kill -9 " + broker + " (pid " + pid + "); dead for " + dead.toSeconds() + " s");
        long sentAtKill = stream.sent.get();
        long ackedAtKill = stream.acknowledged.size();
        // in a cluster the partitions the dead broker led move to another after its session times out
        Pause.sleep(dead.dividedBy(2));
        long sentMid = stream.sent.get();
        long ackedMid = stream.acknowledged.size();
        Pause.sleep(dead.dividedBy(2));
        long sentLate = stream.sent.get() - sentMid;
        long ackedLate = stream.acknowledged.size() - ackedMid;
        outcome.notes().add(broker + " dead " + dead.toSeconds() + " s: " + (stream.acknowledged.size() - ackedAtKill)
                + " acknowledgements while " + (stream.sent.get() - sentAtKill) + " orders were sent, " + ackedLate
                + " while " + sentLate + " were sent in its second half");
        // with one of three brokers dead the others lead its partitions once its session has timed out: in the
        // second half of its death, acknowledgements must still come at a quarter of the rate orders are sent at
        // least. They are counted as they arrive, whenever their order was sent: orders held up until the
        // partitions moved arrive then too, so the bound is low on purpose
        if (stack.cluster() && ackedLate < 0.25 * sentLate) {
            outcome.failures().add("intake did not go on with one of three brokers dead: " + ackedLate
                    + " acknowledgements while " + sentLate + " orders were sent in the second half of its death");
        }
        Instant restarting = Instant.now();
        String state = stack.restart(broker, SERVICE_RESTART);
        console.say(scenario, broker + " " + state + " again after " + secondsSince(restarting) + " s");
    }

    /** {@code SIGSTOP} of the broker for 20 s, then {@code SIGCONT}. */
    private void freezeBroker(Scenario scenario, String broker, OrderStream stream, Outcome outcome) {
        long pid = stack.freeze(broker);
        console.say(scenario, "kill -STOP " + broker + " (pid " + pid + ") for 20 s");
        long refusedBefore = stream.refused.get();
        try {
            Pause.sleep(Duration.ofSeconds(20));
        }
        finally {
            stack.thaw(broker);
        }
        console.say(scenario, "kill -CONT " + broker);
        outcome.notes().add(broker + " frozen 20 s: " + (stream.refused.get() - refusedBefore) + " × 503 meanwhile");
    }

    /** {@code kill -9} of a service, restarted at once; the order service must come back in the act it was in. */
    private void killService(Scenario scenario, String service, Outcome outcome) {
        long pid = stack.kill(service);
        console.say(scenario, "kill -9 " + service + " (pid " + pid + "); restarting it");
        Instant restarting = Instant.now();
        stack.restart(service, SERVICE_RESTART);
        outcome.notes().add(service + " killed, back after " + secondsSince(restarting) + " s");
        console.say(scenario, service + " up again after " + secondsSince(restarting) + " s");
        if (scenario == Scenario.ORDER_SERVICE_KILL) {
            String act = orderService.act().act();
            if (!act.equals(scenario.act.id())) {
                outcome.failures().add("the restarted order service came back in act " + act + ", not " + scenario.act.id());
            }
        }
    }

    /** One poison record of each kind on the orders topic, one message of each kind on every order queue. */
    private void poison(Scenario scenario) {
        Poison.intoTopic(stack.bootstrapServers(), Topology.ORDERS_TOPIC);
        Poison.intoQueues("127.0.0.1", 5672, rabbitUser, rabbitPassword, Poison.ORDER_QUEUES);
        console.say(scenario, "3 poison records on " + Topology.ORDERS_TOPIC + ", 3 poison messages on each of "
                + Poison.ORDER_QUEUES);
    }

    /** RabbitMQ stopped ({@code rabbitmqctl stop_app}) for 10 s and started again. */
    private void restartRabbitMq(Scenario scenario, OrderStream stream, Outcome outcome) {
        stack.stopRabbitMq();
        console.say(scenario, "RabbitMQ stopped (rabbitmqctl stop_app) for 10 s");
        long refusedBefore = stream.refused.get();
        try {
            Pause.sleep(Duration.ofSeconds(10));
        }
        finally {
            Instant starting = Instant.now();
            stack.startRabbitMq();
            console.say(scenario, "RabbitMQ started again (start_app) in " + secondsSince(starting) + " s");
        }
        outcome.notes().add("RabbitMQ down 10 s: " + (stream.refused.get() - refusedBefore) + " × 503 meanwhile");
    }

    private static String secondsSince(Instant start) {
        return String.format("%.1f", Duration.between(start, Instant.now()).toMillis() / 1000.0);
    }
}
