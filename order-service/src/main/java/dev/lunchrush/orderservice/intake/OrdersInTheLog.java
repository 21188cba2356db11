package dev.lunchrush.orderservice.intake;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.kafka.core.ProducerFactory;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderAccepted;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.Topology;

/**
 * Whether a live order is in the log: for an order of the log act whose outcome went unknown and whose producer's
 * answer was lost with the process that sent it (a restart). Reads every partition of the topic, from a minute before
 * the order's placedAt (by the records' timestamps, which are the orders' placedAt) to its end as it is now; records of
 * other kitchens are passed over by their key. A producer that died took its unsent records with it; what it had sent
 * before the restart a broker writes when it handles it, which one that answers this read after the restart has
 * done: an order not found up to the end is taken as not written. Costs nothing until such a retry comes.
 */
@Component
class OrdersInTheLog {

    private static final Logger log = LoggerFactory.getLogger(OrdersInTheLog.class);

    /** How long the read may take: the retry waits for it. */
    static final Duration BUDGET = Duration.ofSeconds(5);
    private static final long MARGIN_MILLIS = 60_000;

    private final Map<String, Object> consumerConfig;

    OrdersInTheLog(ProducerFactory<String, OrderEvent> producers) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                producers.getConfigurationProperties().get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG));
        // live orders are no transaction's: an open import must not hold the reading back
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "order-service-unknown-outcome");
        config.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000);
        config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) BUDGET.toMillis());
        this.consumerConfig = Map.copyOf(config);
    }

    /** {@code true} in the log, {@code false} not in it up to its end, {@code null} when the log did not say within the budget. */
    @Nullable Boolean holds(OrderAccepted order) {
        long deadline = System.nanoTime() + BUDGET.toNanos();
        byte[] kitchen = order.kitchenId().getBytes(StandardCharsets.UTF_8);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topology.ORDERS_TOPIC, BUDGET).stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            consumer.assign(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, BUDGET);
            Map<TopicPartition, Long> from = new HashMap<>();
            partitions.forEach(partition -> from.put(partition, order.placedAt().toEpochMilli() - MARGIN_MILLIS));
            Map<TopicPartition, OffsetAndTimestamp> start = consumer.offsetsForTimes(from, BUDGET);
            for (TopicPartition partition : partitions) {
                OffsetAndTimestamp first = start.get(partition);
                // no record since that time: nothing to read there
                consumer.seek(partition, first == null ? end.get(partition) : first.offset());
            }
            while (!readToTheEnd(consumer, partitions, end)) {
                if (System.nanoTime() > deadline) {
                    log.warn("the log was not read to its end within {} for order {}", BUDGET, order.orderId());
                    return null;
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (Arrays.equals(record.key(), kitchen) && order.orderId().equals(orderId(record.value()))) {
                        return true;
                    }
                }
            }
            return false;
        }
        catch (KafkaException ex) {
            log.warn("could not read the log for order {}: {}", order.orderId(), ex.getMessage());
            return null;
        }
    }

    private static boolean readToTheEnd(KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions,
            Map<TopicPartition, Long> end) {
        for (TopicPartition partition : partitions) {
            if (consumer.position(partition, BUDGET) < end.get(partition)) {
                return false;
            }
        }
        return true;
    }

    private static @Nullable String orderId(byte[] value) {
        try {
            return OrderEventCodec.decode(value).orderId();
        }
        catch (RuntimeException ex) {
            return null;
        }
    }
}
