package dev.lunchrush.chaos;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;

import dev.lunchrush.events.Topology;

/**
 * The oracle of the log's act: the orders topic between the marks, read back, holds every acknowledged order once,
 * each reader counted exactly what it holds, the kitchen screen shows every acknowledged order, nothing was written
 * without a 201 beyond the requests of unknown outcome; under a Kafka fault no request hangs beyond the send
 * timeout; after poison, every poison record and message is dead-lettered and counted.
 */
final class LogOracle extends StreamOracle {

    /** The order service's Kafka send timeout (9 s) and what a loaded machine adds to it. */
    static final long LONGEST_ANSWER_MILLIS = 15_000;

    private final TheLog log;

    LogOracle(TheLog log, Readers readers, Await await, ScenarioConsole console) {
        super(readers, await, console);
        this.log = log;
    }

    @Override
    Result judge(Scenario scenario, Marks marks, OrderStream stream, List<String> notes, List<String> failures) {
        Set<String> acknowledged = Set.copyOf(stream.acknowledged);
        TheLog.Contents contents = log.read(marks.log(), log.endOffsets(Topology.ORDERS_TOPIC));
        Set<String> inLog = new HashSet<>(contents.orderIds());
        long twiceInLog = contents.orderIds().size() - inLog.size();
        long lost = acknowledged.stream().filter(id -> !inLog.contains(id)).count();
        long extra = inLog.stream().filter(id -> !acknowledged.contains(id)).count();
        long expectedPoison = scenario == Scenario.POISON ? Poison.Kind.values().length : 0;

        console.say(scenario, "the log holds " + inLog.size() + " orders from this scenario; waiting for both readers to count them");
        Readers.Counts before = marks.counts();
        Readers.Counts after = await.readersQuiet(scenario, counts -> counts.kitchen("kafka") - before.kitchen("kafka") >= inLog.size()
                && counts.dashboard("kafka") - before.dashboard("kafka") >= inLog.size()
                && counts.deadLettered() - before.deadLettered() >= 2 * expectedPoison + Poison.ORDER_QUEUES.size() * expectedPoison,
                failures);
        long kitchen = after.kitchen("kafka") - before.kitchen("kafka");
        long dashboard = after.dashboard("kafka") - before.dashboard("kafka");
        long notShown = readers.notShownOnKitchenScreen(acknowledged);
        long duplicated = twiceInLog + Math.max(0, kitchen - inLog.size()) + Math.max(0, dashboard - inLog.size());

        if (lost > 0) {
            failures.add(lost + " acknowledged orders are not in the log");
        }
        if (twiceInLog > 0) {
            failures.add(twiceInLog + " orders are in the log twice");
        }
        if (kitchen != inLog.size() || dashboard != inLog.size()) {
            failures.add("the readers counted " + kitchen + " (kitchen screen) and " + dashboard + " (dashboard), the log holds "
                    + inLog.size());
        }
        if (notShown > 0) {
            failures.add(notShown + " acknowledged orders are not on the kitchen screen");
        }
        if (extra > stream.refused.get() + stream.unanswered.get()) {
            failures.add(extra + " orders in the log without a 201, more than the " + (stream.refused.get()
                    + stream.unanswered.get()) + " requests of unknown outcome");
        }
        if (scenario == Scenario.KAFKA_FREEZE || scenario == Scenario.KAFKA_KILL) {
            if (stream.slowestMillis.get() >= LONGEST_ANSWER_MILLIS) {
                failures.add("a request hung for " + stream.slowestMillis.get() + " ms, beyond the send timeout");
            }
            if (stream.unanswered.get() > 0) {
                failures.add(stream.unanswered.get() + " requests got no answer");
            }
        }
        if (contents.poison() != expectedPoison) {
            failures.add("the log holds " + contents.poison() + " records that are no order, " + expectedPoison + " expected");
        }
        if (scenario == Scenario.POISON) {
            judgePoison(marks, before, notes, failures);
        }
        if (extra > 0) {
            notes.add(extra + " orders in the log without a 201: written although their request got a 503 or no answer");
        }
        return new Result(scenario.id, scenario.act.id(), acknowledged.size(), acknowledged.size() - lost, kitchen, dashboard,
                lost, duplicated, stream.refused.get(), stream.unanswered.get(), extra, stream.slowestMillis.get(), notes,
                failures);
    }

    private void judgePoison(Marks marks, Readers.Counts before, List<String> notes, List<String> failures) {
        long kinds = Poison.Kind.values().length;
        // every reader group dead-letters each poison record it reads; each queue's poison goes to the dead-letter queue once
        long topicWanted = 2 * kinds;
        long queueWanted = Poison.ORDER_QUEUES.size() * kinds;
        Await.until(Duration.ofSeconds(60), () -> deadLetterRecords(marks) >= topicWanted
                && readers.queueDepth(Topology.DEAD_LETTER_QUEUE) - marks.deadLetterQueue() >= queueWanted);
        long topic = deadLetterRecords(marks);
        long queue = readers.queueDepth(Topology.DEAD_LETTER_QUEUE) - marks.deadLetterQueue();
        long counted = readers.counts().deadLettered() - before.deadLettered();
        notes.add("poison: " + topic + " of " + topicWanted + " records on " + Topology.ORDERS_DEAD_LETTER_TOPIC + ", " + queue
                + " of " + queueWanted + " messages on " + Topology.DEAD_LETTER_QUEUE + ", " + counted + " of "
                + (topicWanted + queueWanted) + " counted by the readers");
        if (topic != topicWanted || queue != queueWanted || counted != topicWanted + queueWanted) {
            failures.add("poison not all dead-lettered and counted: " + notes.get(notes.size() - 1));
        }
    }

    private long deadLetterRecords(Marks marks) {
        Map<TopicPartition, Long> now = log.endOffsets(Topology.ORDERS_DEAD_LETTER_TOPIC);
        return now.entrySet().stream().mapToLong(entry -> entry.getValue()
                - marks.deadLetterTopic().getOrDefault(entry.getKey(), 0L)).sum();
    }
}
