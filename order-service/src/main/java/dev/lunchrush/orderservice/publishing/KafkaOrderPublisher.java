package dev.lunchrush.orderservice.publishing;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import io.micrometer.tracing.Span;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.problems.OutcomeUnknownException;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.orderservice.web.BlockingWork;
import dev.lunchrush.support.kafka.KafkaTraceHeaders;
import dev.lunchrush.support.tracing.OrderTraces;

/**
 * Appends orders to the log: key = kitchen id (each kitchen's orders stay in order in one partition),
 * record timestamp = placedAt. The returned future completes with the broker's ack (acks=all,
 * idempotent producer), on the producer's I/O thread; nobody waits for it on a thread of its own. A
 * dead or frozen broker fails it with a 503 problem within the configured bounds.
 *
 * <p>A send must never block, since it runs on an event loop: the live producer's {@code max.block.ms} is 0,
 * so a send that finds no metadata for the topic (the broker was lost, or is electing a leader after a
 * restart) or no room in the buffer fails at once, and the order gets a 503 instead of stopping the loop
 * and every request behind it. The topics and the producer's metadata are made ready off the loop before
 * the first send (the first orders wait for that without a thread), and an order that finds the producer's
 * buffer nearly full (the broker has not been taking orders for a while) is answered 503 at once.
 *
 * <p>A traced order's record carries its trace in its headers, with a span of the send until the broker's answer.
 */
@Component
public class KafkaOrderPublisher implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(KafkaOrderPublisher.class);

    /** Below this much free room in the producer's buffer an order is refused rather than waited for. */
    static final long MIN_FREE_BUFFER = 512 * 1024;

    /** How long making the producer ready waits for the topic's metadata, off the loop. */
    static final long METADATA_WAIT_MILLIS = 3_000;

    private static final RetryTemplate METADATA_RETRY = new RetryTemplate(RetryPolicy.builder()
            .includes(org.apache.kafka.common.errors.TimeoutException.class)
            .maxRetries(Long.MAX_VALUE).delay(Duration.ofMillis(20)).multiplier(1)
            .timeout(Duration.ofMillis(METADATA_WAIT_MILLIS)).build());

    private final ProducerFactory<String, OrderEvent> producers;
    private final KafkaTopology topics;
    private final BlockingWork blocking;
    private final long timeoutMillis;
    private final GivenUpRecords givenUp;
    private final OrderTraces traces;
    private volatile @Nullable Ready ready;

    /** The producer once its metadata for the topic is in, and the gauge of its buffer's free room. */
    private record Ready(Producer<String, OrderEvent> producer, @Nullable Metric freeBuffer) {
    }

    KafkaOrderPublisher(ProducerFactory<String, OrderEvent> producers, KafkaTopology topics, BlockingWork blocking,
            KafkaSettings settings, MeterRegistry registry, OrderTraces traces) {
        this.producers = producers;
        this.traces = traces;
        this.topics = topics;
        this.blocking = blocking;
        this.timeoutMillis = settings.sendTimeout().toMillis();
        this.givenUp = new GivenUpRecords(producers.getConfigurationProperties().get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG),
                registry);
    }

    public CompletableFuture<Void> publish(OrderEvent event) {
        Ready producer = ready;
        // the order's span, if it is traced: the first orders are sent on another thread, once the producer is ready
        Span trace = traces.tracer().currentSpan();
        // the factory replaces its producer after a fatal error: a new one is made ready off the loop first
        if (producer != null && producer.producer() == producers.createProducer()) {
            return send(producer, event, trace);
        }
        return topics.ensureTopicsInBackground().thenCompose(created -> {
            if (!created) {
                return CompletableFuture.failedFuture(ProblemException.unavailable("Kafka is not reachable: the topic "
                        + Topology.ORDERS_TOPIC + " could not be created"));
            }
            return blocking.supply(this::prepare).thenCompose(prepared -> send(prepared, event, trace));
        });
    }

    /** Off the event loop: the producer and its metadata for the topic, which a first send would wait for. */
    private Ready prepare() {
        Producer<String, OrderEvent> producer = producers.createProducer();
        Ready prepared = ready;
        if (prepared != null && prepared.producer() == producer) {
            return prepared;
        }
        try {
            awaitMetadata(producer);
            Metric freeBuffer = producer.metrics().entrySet().stream()
                    .filter(metric -> isFreeBuffer(metric.getKey()))
                    .map(java.util.Map.Entry::getValue)
                    .findFirst().orElse(null);
            prepared = new Ready(producer, freeBuffer);
            ready = prepared;
            return prepared;
        }
        catch (RuntimeException ex) {
            log.warn("Kafka producer not ready: {}", ex.getMessage());
            throw ProblemException.unavailable("Kafka is not reachable: " + ex.getMessage());
        }
    }

    /**
     * With {@code max.block.ms} 0 a metadata lookup does not wait: each one asks the producer's I/O thread
     * for the topic's metadata and fails until it is in, so this asks again every 20 ms until it is, within
     * {@link #METADATA_WAIT_MILLIS}.
     */
    private static void awaitMetadata(Producer<String, OrderEvent> producer) {
        try {
            METADATA_RETRY.invoke(() -> producer.partitionsFor(Topology.ORDERS_TOPIC));
        }
        catch (org.apache.kafka.common.errors.TimeoutException ex) {
            throw new org.apache.kafka.common.errors.TimeoutException("Topic " + Topology.ORDERS_TOPIC
                    + " not present in metadata after " + METADATA_WAIT_MILLIS + " ms", ex);
        }
    }

    private static boolean isFreeBuffer(MetricName name) {
        return name.name().equals("buffer-available-bytes") && name.group().equals("producer-metrics");
    }

    private CompletableFuture<Void> send(Ready ready, OrderEvent event, @Nullable Span trace) {
        if (ready.freeBuffer() != null && ready.freeBuffer().metricValue() instanceof Number free
                && free.longValue() < MIN_FREE_BUFFER) {
            return CompletableFuture.failedFuture(ProblemException.unavailable(
                    "Kafka has not been taking orders: the producer's buffer is full"));
        }
        CompletableFuture<Void> acked = new CompletableFuture<>();
        ProducerRecord<String, OrderEvent> record = new ProducerRecord<>(Topology.ORDERS_TOPIC, null,
                event.placedAt().toEpochMilli(), event.kitchenId(), event);
        Span span = traces.sending(trace, "kafka", event.orderId(), record.headers(), KafkaTraceHeaders.HEADERS);
        try {
            ready.producer().send(record, (metadata, failure) -> {
                        if (failure != null) {
                            span.error(failure);
                        }
                        span.end();
                        if (failure == null) {
                            acked.complete(null);
                            givenUp.acknowledged(metadata.partition(), metadata.offset());
                        }
                        else if (failure instanceof org.apache.kafka.common.errors.TimeoutException && metadata != null
                                && metadata.partition() >= 0) {
                            // the producer's delivery timeout: the record may have reached a broker that writes it later
                            log.warn("Kafka's producer gave up on {}: {}", event.orderId(), failure.getMessage());
                            acked.completeExceptionally(new OutcomeUnknownException("Kafka's producer gave up on the order "
                                    + "while it may have been on its way (" + failure.getMessage() + "): it may be in the log "
                                    + "or not. Send it again with the same Idempotency-Key to learn which (it is then placed "
                                    + "once)", givenUp.add(event, metadata.partition()).thenApply(ignored -> event)));
                        }
                        else {
                            String reason = failure.getCause() == null ? failure.getMessage() : failure.getCause().getMessage();
                            log.warn("Kafka did not acknowledge: {}", reason);
                            acked.completeExceptionally(ProblemException.unavailable(
                                    "Kafka did not acknowledge the order: " + reason));
                        }
                    });
        }
        catch (org.apache.kafka.common.KafkaException ex) {
            span.error(ex);
            span.end();
            log.warn("could not send to Kafka: {}", ex.getMessage());
            return CompletableFuture.failedFuture(ProblemException.unavailable("Kafka did not take the order: " + ex.getMessage()));
        }
        // the client's answer is cut at the send timeout; the producer's own answer still comes, by its delivery
        // timeout, and is the outcome of an order answered "unknown" meanwhile
        return acked.copy().orTimeout(timeoutMillis, TimeUnit.MILLISECONDS).exceptionallyCompose(failure -> {
            if (ProblemException.unwrap(failure) instanceof TimeoutException) {
                log.warn("no ack from Kafka within {} ms: the order's outcome is unknown", timeoutMillis);
                return CompletableFuture.failedFuture(new OutcomeUnknownException("Kafka did not acknowledge the order "
                        + "within " + timeoutMillis + " ms: it may be in the log or not. Send it again with the same "
                        + "Idempotency-Key to learn which (it is then placed once)", eventually(acked, event)));
            }
            return CompletableFuture.failedFuture(ProblemException.unwrap(failure));
        });
    }

    /** The order once the producer's answer, or the log after a record it gave up on, says it was written. */
    @SuppressWarnings("unchecked")
    private static CompletableFuture<OrderEvent> eventually(CompletableFuture<Void> acked, OrderEvent event) {
        return acked.thenApply(ignored -> event).exceptionallyCompose(failure -> {
            if (ProblemException.unwrap(failure) instanceof OutcomeUnknownException unknown && unknown.outcome() != null) {
                return (CompletableFuture<OrderEvent>) unknown.outcome();
            }
            return CompletableFuture.failedFuture(ProblemException.unwrap(failure));
        });
    }

    @Override
    public void destroy() {
        givenUp.close();
        Ready producer = ready;
        if (producer != null) {
            // the factory's shared producer: closing this handle only gives it back
            producer.producer().close();
        }
    }
}
