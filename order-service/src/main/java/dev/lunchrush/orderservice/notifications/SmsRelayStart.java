package dev.lunchrush.orderservice.notifications;

import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.stereotype.Component;

/**
 * A partition the SMS relay's group has no committed offset for starts at the first order placed
 * since this service started, not at the log's beginning: a new group must not text every customer
 * of the last two weeks. A partition with a committed offset goes on from there, orders placed while
 * the service was down included.
 */
@Component
class SmsRelayStart implements ConsumerAwareRebalanceListener {

    private static final Logger log = LoggerFactory.getLogger(SmsRelayStart.class);

    private final long startedMillis = Instant.now().toEpochMilli();

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new HashSet<>(partitions));
        Map<TopicPartition, Long> fresh = new HashMap<>();
        for (TopicPartition partition : partitions) {
            if (committed.get(partition) == null) {
                fresh.put(partition, startedMillis);
            }
        }
        if (fresh.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndTimestamp> starts = consumer.offsetsForTimes(fresh);
        for (TopicPartition partition : fresh.keySet()) {
            OffsetAndTimestamp start = starts.get(partition);
            if (start == null) {
                consumer.seekToEnd(List.of(partition));
            }
            else {
                consumer.seek(partition, start.offset());
            }
        }
        log.info("SMS relay: {} partition(s) new to group {} start at the orders placed since {}", fresh.size(),
                SmsRelay.GROUP, Instant.ofEpochMilli(startedMillis));
    }
}
