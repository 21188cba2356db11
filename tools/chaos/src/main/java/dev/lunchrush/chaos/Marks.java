package dev.lunchrush.chaos;

import java.util.Map;

import org.apache.kafka.common.TopicPartition;

import dev.lunchrush.events.Topology;

/**
 * The marks a scenario is measured from, taken before its stream starts: the readers' counters; the orders topic's
 * end offsets (for the log's oracle); the dead-letter topic's end offsets and the dead-letter queue's depth (for
 * poison). What a scenario does not judge is left empty.
 */
record Marks(Readers.Counts counts, Map<TopicPartition, Long> log, Map<TopicPartition, Long> deadLetterTopic,
        long deadLetterQueue) {

    static Marks take(Scenario scenario, TheLog log, Readers readers) {
        Map<TopicPartition, Long> logMark = scenario.oracle == Scenario.Oracle.LOG
                ? log.endOffsets(Topology.ORDERS_TOPIC) : Map.of();
        Map<TopicPartition, Long> deadLetterMark = scenario == Scenario.POISON
                ? log.endOffsets(Topology.ORDERS_DEAD_LETTER_TOPIC) : Map.of();
        long deadLetterQueue = scenario == Scenario.POISON ? readers.queueDepth(Topology.DEAD_LETTER_QUEUE) : 0;
        return new Marks(readers.counts(), logMark, deadLetterMark, deadLetterQueue);
    }
}
