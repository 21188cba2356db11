package dev.lunchrush.analyticsdashboard.processing;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The dashboard's numbers in the embedded database: counts per UTC minute and kitchen, portions per
 * UTC minute and dish, orders received per source, and the next Kafka offset of each partition, all
 * changed in one transaction per batch. Minutes, not hours, because a zone's day and hours start on
 * a whole minute in UTC for every zone in use (offsets such as +05:45 or +12:45 included), so a day
 * report for any zone is exact.
 */
@Repository
public class Aggregates {

    private static final Logger log = LoggerFactory.getLogger(Aggregates.class);

    private static final long MINUTE_MILLIS = 60_000;

    private final JdbcClient jdbc;
    private final JdbcTemplate jdbcTemplate;
    private final TransactionTemplate transactions;

    Aggregates(JdbcClient jdbc, JdbcTemplate jdbcTemplate, TransactionTemplate transactions) {
        this.jdbc = jdbc;
        this.jdbcTemplate = jdbcTemplate;
        this.transactions = transactions;
    }

    /**
     * Adds the orders to the counts and moves the stored offsets past them, all or nothing; returns how many
     * were added. A log record below its partition's stored offset is already in the counts and is skipped:
     * after a failed step the error handler hands the listener its whole poll again, the steps that had
     * committed included, and whatever hands a record over twice, it is counted once.
     */
    int apply(String source, List<Incoming> batch) {
        Integer applied = transactions.execute(status -> {
            List<Incoming> fresh = notYetCounted(batch);
            if (fresh.isEmpty()) {
                return 0;
            }
            Map<Key, Long> perKitchen = new HashMap<>();
            Map<Key, Long> perDish = new HashMap<>();
            Map<TopicPartition, Long> nextOffsets = new HashMap<>();
            for (Incoming incoming : fresh) {
                long minute = Math.floorDiv(incoming.event().placedAt().toEpochMilli(), MINUTE_MILLIS);
                perKitchen.merge(new Key(minute, incoming.event().kitchenId()), 1L, Long::sum);
                incoming.event().items().forEach(item -> perDish.merge(new Key(minute, item.dish()), (long) item.quantity(), Long::sum));
                if (incoming.partition() != null) {
                    nextOffsets.merge(incoming.partition(), incoming.offset() + 1, Math::max);
                }
            }
            add("kitchen_minute", "kitchen_id", "orders", perKitchen);
            add("dish_minute", "dish", "portions", perDish);
            jdbc.sql("merge into received t using (values (cast(:source as varchar), cast(:n as bigint))) s(source, n) "
                    + "on t.source = s.source when matched then update set n = t.n + s.n "
                    + "when not matched then insert (source, n) values (s.source, s.n)")
                    .param("source", source).param("n", fresh.size()).update();
            nextOffsets.forEach((partition, offset) -> jdbc.sql(
                    "merge into kafka_offsets (topic, partition_id, next_offset) key (topic, partition_id) values (?, ?, ?)")
                    .params(partition.topic(), partition.partition(), offset).update());
            return fresh.size();
        });
        return applied == null ? 0 : applied;
    }

    /** The batch without the log records at offsets below what is stored for their partition (read in the transaction). */
    private List<Incoming> notYetCounted(List<Incoming> batch) {
        Map<TopicPartition, Long> stored = new HashMap<>();
        for (Incoming incoming : batch) {
            TopicPartition partition = incoming.partition();
            if (partition != null && !stored.containsKey(partition)) {
                stored.put(partition, jdbc.sql("select next_offset from kafka_offsets where topic = ? and partition_id = ?")
                        .params(partition.topic(), partition.partition()).query(Long.class).optional().orElse(-1L));
            }
        }
        if (stored.isEmpty()) {
            return batch;
        }
        return batch.stream()
                .filter(incoming -> incoming.partition() == null || incoming.offset() >= stored.get(incoming.partition()))
                .toList();
    }

    private void add(String table, String column, String count, Map<Key, Long> deltas) {
        List<Object[]> rows = deltas.entrySet().stream()
                .map(entry -> new Object[] {entry.getKey().minute(), entry.getKey().name(), entry.getValue()})
                .toList();
        jdbcTemplate.batchUpdate("merge into " + table + " t using (values (cast(? as bigint), cast(? as varchar), "
                + "cast(? as bigint))) s(utc_minute, name, n) on t.utc_minute = s.utc_minute and t." + column + " = s.name "
                + "when matched then update set " + count + " = t." + count + " + s.n "
                + "when not matched then insert (utc_minute, " + column + ", " + count + ") values (s.utc_minute, s.name, s.n)", rows);
    }

    /**
     * Where this reader stopped in each partition of the log whose Kafka id is {@code topicId}. Offsets stored for
     * the topic under another id are of another log (the topic deleted and made again, or a new cluster behind the
     * same address, as when {@code ./demo up --cluster} follows a single broker): they are forgotten, and this log is
     * read from its start. Were they kept, the consumer would be sent past this log's end, Kafka would move it back
     * to the start, and every record below the old offsets would be taken for one already counted. Offsets stored
     * before the id was (none recorded) are taken to be of this log.
     */
    public Map<TopicPartition, Long> storedOffsets(String topic, String topicId) {
        transactions.executeWithoutResult(status -> {
            String stored = jdbc.sql("select topic_id from kafka_topics where topic = ?").param(topic)
                    .query(String.class).optional().orElse(null);
            if (stored != null && !stored.equals(topicId)) {
                int forgotten = jdbc.sql("delete from kafka_offsets where topic = ?").param(topic).update();
                log.warn("topic {} is another log than the one read before (id {}, was {}): {} stored offsets forgotten, "
                        + "reading it from its start", topic, topicId, stored, forgotten);
            }
            if (!topicId.equals(stored)) {
                jdbc.sql("merge into kafka_topics (topic, topic_id) key (topic) values (?, ?)").params(topic, topicId).update();
            }
        });
        return storedOffsets(topic);
    }

    /** Where this reader stopped in each partition of the log: the next offset to read. */
    public Map<TopicPartition, Long> storedOffsets(String topic) {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        jdbc.sql("select partition_id, next_offset from kafka_offsets where topic = :topic").param("topic", topic)
                .query((rs, row) -> offsets.put(new TopicPartition(topic, rs.getInt(1)), rs.getLong(2))).list();
        return offsets;
    }

    Map<String, Long> received() {
        Map<String, Long> received = new TreeMap<>();
        jdbc.sql("select source, n from received").query((rs, row) -> received.put(rs.getString(1), rs.getLong(2))).list();
        return received;
    }

    /** The day's report in a zone, from the minute counts of that day's UTC span. */
    public DayReport day(LocalDate date, ZoneId zone) {
        long from = Math.floorDiv(date.atStartOfDay(zone).toInstant().toEpochMilli(), MINUTE_MILLIS);
        long to = Math.floorDiv(date.plusDays(1).atStartOfDay(zone).toInstant().toEpochMilli(), MINUTE_MILLIS);
        Map<String, Long> perKitchen = new TreeMap<>();
        jdbc.sql("select kitchen_id, sum(orders) from kitchen_minute where utc_minute >= :from and utc_minute < :to group by kitchen_id")
                .param("from", from).param("to", to)
                .query((rs, row) -> perKitchen.put(rs.getString(1), rs.getLong(2))).list();
        Map<String, Long> perHour = new LinkedHashMap<>();
        for (int hour = 0; hour < 24; hour++) {
            perHour.put("%02d".formatted(hour), 0L);
        }
        jdbc.sql("select utc_minute, sum(orders) from kitchen_minute where utc_minute >= :from and utc_minute < :to group by utc_minute")
                .param("from", from).param("to", to)
                .query((rs, row) -> perHour.merge("%02d".formatted(Instant.ofEpochMilli(rs.getLong(1) * MINUTE_MILLIS)
                        .atZone(zone).getHour()), rs.getLong(2), Long::sum)).list();
        Map<String, Long> perDish = new TreeMap<>();
        jdbc.sql("select dish, sum(portions) from dish_minute where utc_minute >= :from and utc_minute < :to group by dish")
                .param("from", from).param("to", to)
                .query((rs, row) -> perDish.put(rs.getString(1), rs.getLong(2))).list();
        long total = perKitchen.values().stream().mapToLong(Long::longValue).sum();
        return new DayReport(date.toString(), zone.getId(), total, perKitchen, perHour, perDish);
    }

    private record Key(long minute, String name) {
    }
}
