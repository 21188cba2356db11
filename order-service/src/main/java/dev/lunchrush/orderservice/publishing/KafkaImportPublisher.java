package dev.lunchrush.orderservice.publishing;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Consumer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.kafka.core.ProducerFactory;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderEventSerializer;
import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.problems.OutcomeUnknownException;
import dev.lunchrush.support.problems.ProblemException;

/**
 * Appends an admin import's batch to the log in one Kafka transaction, once: every order of the batch is in
 * the log, or none is (the readers read committed records only), and a batch sent again under its
 * Idempotency-Key is never written twice, whatever the broker did at the commit.
 *
 * <p>Each batch has a producer of its own whose {@code transactional.id} is made of its Idempotency-Key, so
 * every attempt under a key has the same one. Before the commit is asked for, where the batch's first
 * record landed ({@link Landed}: partition, offset, order id) is handed to the caller to keep; from then
 * on a commit that Kafka does not answer is of unknown outcome (the coordinator may have it), and the
 * answer says so ({@link OutcomeUnknownException}), never "nothing written". The next attempt under the
 * key starts a producer with the same transactional id: its {@code initTransactions} fences the earlier
 * one and completes or aborts its transaction, after which the log says which, for good: the record at
 * the kept offset, read {@code read_committed}, is there (committed: the earlier attempt's answer is given,
 * nothing is written) or skipped (aborted: the batch is written now). Only a failure before the commit
 * was asked for (a refused record, Kafka away) answers that nothing was written. Without an
 * Idempotency-Key the transactional id is used once and an unknown outcome cannot be learnt.
 *
 * <p>The live orders keep the service's plain idempotent producer: a transaction per order would
 * cost a round trip to the coordinator each, for nothing a single record needs.
 */
@Component
public class KafkaImportPublisher {

    private static final Logger log = LoggerFactory.getLogger(KafkaImportPublisher.class);

    /** Transactional ids of batches with an Idempotency-Key: this, then the key. */
    static final String KEYED_TRANSACTION_ID = "order-service-import-key-";
    /** Transactional ids of batches without one, used once. */
    static final String ONE_OFF_TRANSACTION_ID = "order-service-import-once-";

    private final Map<String, Object> producerConfig;
    private final Map<String, Object> consumerConfig;
    private final KafkaTopology topics;
    private final Duration timeout;
    private final Duration maxBlock;
    private final Counter commitsAskedAgain;
    private final Counter unknown;
    private final Counter foundCommitted;
    private final Counter foundAborted;

    KafkaImportPublisher(ProducerFactory<String, OrderEvent> liveProducers, KafkaTopology topics, KafkaSettings settings,
            MeterRegistry registry) {
        this.timeout = settings.importTimeout();
        // the batch's steps each wait at most this long for Kafka: the producer's start and fencing, the
        // reading of an earlier attempt's outcome, each ask for the commit
        this.maxBlock = Duration.ofMillis(Math.min(10_000, timeout.toMillis() / 4));
        Map<String, Object> producer = new HashMap<>(liveProducers.getConfigurationProperties());
        producer.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) maxBlock.toMillis());
        // a record not acknowledged within half the budget fails the batch before its commit: nothing written
        producer.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) (timeout.toMillis() / 2));
        // the coordinator aborts a transaction left open longer than twice the budget: not one whose commit is on its
        // way when the budget is spent (a broker that stood still gets it when it goes on); an attempt whose outcome
        // went unknown is settled by the next attempt under its key, whose producer fences it at once
        producer.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) timeout.toMillis() * 2);
        // every batch's producer is new: it looks its coordinator up first, and sends the producer-id request that waited
        // for it only after a pause of retry.backoff.ms, whose default (100 ms) would be most of a batch's time
        producer.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 10);
        producer.remove(ProducerConfig.CLIENT_ID_CONFIG);
        this.producerConfig = java.util.Collections.unmodifiableMap(producer);
        this.consumerConfig = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, producer.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.CLIENT_ID_CONFIG, "order-service-import-outcome",
                ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000,
                ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) maxBlock.toMillis());
        this.topics = topics;
        this.commitsAskedAgain = Counter.builder("orders.import.commit.retries")
                .description("asks for an import's commit again after Kafka did not answer one in time").register(registry);
        this.unknown = Counter.builder("orders.import.unknown")
                .description("import batches answered 503 with their outcome unknown (a commit Kafka did not answer)")
                .register(registry);
        this.foundCommitted = resolved(registry, "committed");
        this.foundAborted = resolved(registry, "aborted");
    }

    private static Counter resolved(MeterRegistry registry, String outcome) {
        return Counter.builder("orders.import.resolved").tag("outcome", outcome)
                .description("earlier attempts of an unknown outcome, learnt from the log by the next attempt")
                .register(registry);
    }

    /** The transactional id of every attempt of the batch with this Idempotency-Key. */
    public static String transactionalId(String idempotencyKey) {
        return KEYED_TRANSACTION_ID + idempotencyKey;
    }

    /** A transactional id for a batch without an Idempotency-Key: used once. */
    public static String oneOffTransactionalId() {
        return ONE_OFF_TRANSACTION_ID + UUID.randomUUID();
    }

    /**
     * Where a batch's first record landed before its commit was asked for: what a later attempt reads to
     * learn whether the commit happened.
     */
    public record Landed(String transactionalId, int partition, long offset, String orderId, int orders) {

        private static final int VERSION = 1;

        public byte[] encode() {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeByte(VERSION);
                out.writeUTF(transactionalId);
                out.writeInt(partition);
                out.writeLong(offset);
                out.writeUTF(orderId);
                out.writeInt(orders);
            }
            catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
            return bytes.toByteArray();
        }

        public static Landed decode(byte[] note) {
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(note))) {
                int version = in.readUnsignedByte();
                if (version != VERSION) {
                    throw new IllegalStateException("an import note of version " + version + ", not " + VERSION);
                }
                return new Landed(in.readUTF(), in.readInt(), in.readLong(), in.readUTF(), in.readInt());
            }
            catch (IOException ex) {
                throw new UncheckedIOException("an import note that cannot be read", ex);
            }
        }
    }

    /**
     * What became of a batch.
     *
     * @param byEarlierAttempt the batch was found committed by an earlier attempt whose answer was lost, and
     *     was not written again
     */
    public record Written(int orders, boolean byEarlierAttempt) {
    }

    /**
     * Writes the batch in one transaction, unless {@code earlier} (what an earlier attempt with the same
     * transactional id left) turns out committed. {@code beforeCommit} gets where the batch landed and must
     * keep it before returning; when it throws, the batch is aborted.
     *
     * @throws OutcomeUnknownException when the commit was asked for and Kafka did not answer it, or when the
     *     earlier attempt's outcome could not be learnt
     * @throws ProblemException 503 when nothing of the batch was written
     */
    public Written publishOnce(String transactionalId, List<OrderEvent> events, @Nullable Landed earlier,
            Consumer<Landed> beforeCommit) {
        long deadline = System.nanoTime() + timeout.toNanos();
        if (!topics.ensureTopics()) {
            throw notWrittenOrUnknown(events, earlier, "the topic " + Topology.ORDERS_TOPIC + " could not be created");
        }
        KafkaProducer<String, OrderEvent> producer = new KafkaProducer<>(producerConfig(transactionalId),
                new StringSerializer(), new OrderEventSerializer());
        boolean commitAsked = false;
        boolean begun = false;
        try {
            // fences the producer of an earlier attempt: its transaction is now committed or aborted for good
            untilAnswered(producer::initTransactions, deadline, () -> { });
            if (earlier != null) {
                Boolean committed = committed(earlier, deadline);
                if (committed == null) {
                    throw earlierUnknown(events, "the log did not say within " + timeout.toSeconds() + " s");
                }
                (committed ? foundCommitted : foundAborted).increment();
                log.info("import {}: the earlier attempt's batch of {} orders was {}", transactionalId, earlier.orders(),
                        committed ? "committed: not written again" : "aborted: writing it now");
                if (committed) {
                    return new Written(earlier.orders(), true);
                }
            }
            producer.beginTransaction();
            begun = true;
            List<Future<RecordMetadata>> sends = new ArrayList<>(events.size());
            for (OrderEvent event : events) {
                sends.add(producer.send(new ProducerRecord<>(Topology.ORDERS_TOPIC, null, event.placedAt().toEpochMilli(),
                        event.kitchenId(), event)));
            }
            producer.flush();
            Landed landed = landed(transactionalId, events, sends);
            beforeCommit.accept(landed);
            commitAsked = true;
            untilAnswered(producer::commitTransaction, deadline, () -> {
                commitsAskedAgain.increment();
                log.info("Kafka has not answered an import's commit within {} ms: asking again", maxBlock.toMillis());
            });
            return new Written(events.size(), false);
        }
        catch (OutcomeUnknownException ex) {
            throw ex;
        }
        catch (RuntimeException ex) {
            String reason = reason(ex);
            if (commitAsked) {
                unknown.increment();
                log.warn("import {} of {} orders: Kafka did not answer its commit ({}); its outcome is unknown",
                        transactionalId, events.size(), reason);
                throw new OutcomeUnknownException("Kafka did not confirm the commit of the batch of " + events.size()
                        + " orders (" + reason + "): it may be in the log or not. Send it again with the same "
                        + "Idempotency-Key to learn which: it is then written once (without one, a retry may write it "
                        + "twice)", null);
            }
            if (begun) {
                abortQuietly(producer);
            }
            throw notWrittenOrUnknown(events, earlier, reason);
        }
        finally {
            // nothing waits in the producer: a commit Kafka did not answer is left to the coordinator and the next attempt
            producer.close(Duration.ZERO);
        }
    }

    private Map<String, Object> producerConfig(String transactionalId) {
        Map<String, Object> config = new HashMap<>(producerConfig);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        return config;
    }

    /** Where the first record landed; fails with the first send's failure, if any (then nothing is committed). */
    private static Landed landed(String transactionalId, List<OrderEvent> events, List<Future<RecordMetadata>> sends) {
        RecordMetadata first = null;
        for (Future<RecordMetadata> send : sends) {
            try {
                RecordMetadata metadata = send.get();
                first = first == null ? metadata : first;
            }
            catch (ExecutionException ex) {
                throw ex.getCause() instanceof RuntimeException runtime ? runtime : new KafkaException(ex.getCause());
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new KafkaException("interrupted", ex);
            }
        }
        return new Landed(transactionalId, first.partition(), first.offset(), events.get(0).orderId(), events.size());
    }

    /**
     * Kafka allows the same call again after it timed out (the same initialization, the same commit, not a new one):
     * again until the budget is spent. A broker's first transaction, for one, waits for its transaction log to be
     * created; a frozen broker's commit, for another, until it goes on.
     */
    private static void untilAnswered(Runnable call, long deadline, Runnable again) {
        while (true) {
            try {
                call.run();
                return;
            }
            catch (org.apache.kafka.common.errors.TimeoutException ex) {
                if (System.nanoTime() >= deadline) {
                    throw ex;
                }
                again.run();
            }
        }
    }

    /**
     * Whether the earlier attempt's batch is in the log: the record at its first offset, read committed, is
     * there (committed) or skipped (aborted); {@code null} when the log did not say within the budget.
     */
    private @Nullable Boolean committed(Landed earlier, long deadline) {
        TopicPartition partition = new TopicPartition(Topology.ORDERS_TOPIC, earlier.partition());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seek(partition, earlier.offset());
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    return record.offset() == earlier.offset() && earlier.orderId().equals(orderId(record.value()));
                }
                try {
                    // read committed, an aborted record is skipped: the position passes it without returning it
                    if (consumer.position(partition, maxBlock) > earlier.offset()) {
                        return false;
                    }
                }
                catch (org.apache.kafka.common.errors.TimeoutException ex) {
                    log.debug("no position on {} yet: {}", partition, ex.getMessage());
                }
            }
            return null;
        }
        catch (KafkaException ex) {
            log.warn("could not read the outcome of import {} from the log: {}", earlier.transactionalId(), ex.getMessage());
            return null;
        }
    }

    private static @Nullable String orderId(byte[] value) {
        try {
            return OrderEventCodec.decode(value).orderId();
        }
        catch (RuntimeException ex) {
            return null;
        }
    }

    private static void abortQuietly(KafkaProducer<String, OrderEvent> producer) {
        try {
            producer.abortTransaction();
        }
        catch (RuntimeException ex) {
            // the coordinator aborts it on its timeout, or the next producer with this id does
            log.debug("abort of an import's transaction: {}", ex.getMessage());
        }
    }

    private ProblemException notWrittenOrUnknown(List<OrderEvent> events, @Nullable Landed earlier, String reason) {
        if (earlier != null) {
            return earlierUnknown(events, reason);
        }
        log.warn("import of {} orders not committed: {}", events.size(), reason);
        return ProblemException.unavailable("Kafka did not commit the batch of " + events.size()
                + " orders (none of it is in the log): " + reason);
    }

    /** The earlier attempt's outcome is still unknown: nothing may be written, and nothing may be said to be not. */
    private OutcomeUnknownException earlierUnknown(List<OrderEvent> events, String reason) {
        unknown.increment();
        return new OutcomeUnknownException("an earlier attempt of this batch of " + events.size() + " orders asked Kafka "
                + "for its commit without an answer, and its outcome could not be learnt now (" + reason + "): it may be "
                + "in the log or not. Send it again with the same Idempotency-Key later", null);
    }

    private static String reason(RuntimeException ex) {
        return ex.getCause() == null || ex.getCause() == ex ? String.valueOf(ex.getMessage())
                : ex.getMessage() + ": " + ex.getCause().getMessage();
    }
}
