package dev.lunchrush.support.tracing;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.B3Propagation;
import brave.propagation.TraceContext;
import brave.sampler.Sampler;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;

import dev.lunchrush.support.kafka.KafkaTraceHeaders;
import dev.lunchrush.support.rabbit.RabbitTraceHeaders;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An order's trace across a Kafka record, with Brave as the services run it: the order's span, the send's span
 * whose context the record's headers carry, the reader's span continuing it; an order not sampled carries nothing
 * and costs the reader no span.
 */
class OrderTracesTests {

    private final List<MutableSpan> finished = new CopyOnWriteArrayList<>();
    private Tracing tracing;

    private OrderTraces traces(Sampler sampler) {
        tracing = Tracing.newBuilder().localServiceName("order-service").sampler(sampler)
                .propagationFactory(B3Propagation.newFactoryBuilder().injectFormat(B3Propagation.Format.SINGLE).build())
                .addSpanHandler(new SpanHandler() {
                    @Override
                    public boolean end(TraceContext context, MutableSpan span, Cause cause) {
                        finished.add(span);
                        return true;
                    }
                }).build();
        Tracer tracer = new BraveTracer(tracing.tracer(), new BraveCurrentTraceContext(tracing.currentTraceContext()),
                new BraveBaggageManager());
        return new OrderTraces(tracer, new BravePropagator(tracing));
    }

    @AfterEach
    void close() {
        if (tracing != null) {
            tracing.close();
        }
    }

    @Test
    void aSampledOrdersRecordCarriesItsTraceAndTheReaderContinuesIt() {
        OrderTraces traces = traces(Sampler.ALWAYS_SAMPLE);
        Tracer tracer = traces.tracer();
        Span order = tracer.spanBuilder().name("place order").kind(Span.Kind.SERVER).start();
        ProducerRecord<String, String> sent = new ProducerRecord<>("orders", "k1", "o-1");
        try (Tracer.SpanInScope scope = tracer.withSpan(order)) {
            traces.sending(tracer.currentSpan(), "kafka", "o-1", sent.headers(), KafkaTraceHeaders.HEADERS).end();
        }
        order.end();

        ConsumerRecord<String, String> traced = received(0, sent.headers());
        ConsumerRecord<String, String> untraced = received(1, new RecordHeaders());
        try (OrderTraces.Received batch = traces.received("kitchen-screen", "kafka", List.of(traced, untraced),
                KafkaTraceHeaders.RECORD)) {
            assertThat(batch.sampledTraceId(0)).isEqualTo(order.context().traceId());
            assertThat(batch.sampledTraceId(1)).as("a record without a trace").isNull();
        }

        // in the order they ended: the send (Kafka's answer) within the order's span
        assertThat(finished).extracting(MutableSpan::name).containsExactly("send kafka", "place order", "kitchen-screen receive");
        MutableSpan send = finished.get(0);
        MutableSpan receive = finished.get(2);
        assertThat(send.parentId()).isEqualTo(finished.get(1).id());
        assertThat(send.tag("order.id")).isEqualTo("o-1");
        assertThat(send.remoteServiceName()).isEqualTo("kafka");
        assertThat(receive.parentId()).isEqualTo(send.id());
        assertThat(receive.traceId()).isEqualTo(send.traceId());
        assertThat(receive.kind()).isEqualTo(brave.Span.Kind.CONSUMER);
    }

    @Test
    void anOrderNotSampledCarriesNothingAndItsReaderMakesNoSpan() {
        OrderTraces traces = traces(Sampler.NEVER_SAMPLE);
        Tracer tracer = traces.tracer();
        Span order = tracer.spanBuilder().name("place order").start();
        ProducerRecord<String, String> sent = new ProducerRecord<>("orders", "k1", "o-1");
        try (Tracer.SpanInScope scope = tracer.withSpan(order)) {
            Span send = traces.sending(tracer.currentSpan(), "kafka", "o-1", sent.headers(), KafkaTraceHeaders.HEADERS);
            assertThat(send.isNoop()).isTrue();
        }
        assertThat(sent.headers().toArray()).isEmpty();
        try (OrderTraces.Received batch = traces.received("kitchen-screen", "kafka", List.of(received(0, sent.headers())),
                KafkaTraceHeaders.RECORD)) {
            assertThat(batch.sampledTraceId(0)).isNull();
        }
        assertThat(finished).isEmpty();
    }

    @Test
    void aMessagesHeadersAreReadAsText() {
        MessageProperties properties = new MessageProperties();
        properties.setHeader("b3", "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1");
        Message message = new Message("{}".getBytes(StandardCharsets.UTF_8), properties);
        OrderTraces traces = traces(Sampler.NEVER_SAMPLE);
        try (OrderTraces.Received batch = traces.received("analytics-dashboard", "rabbitmq", List.of(message),
                RabbitTraceHeaders.MESSAGE)) {
            assertThat(batch.sampledTraceId(0)).as("the sender's decision, not this sampler's")
                    .isEqualTo("80f198ee56343ba864fe8b2a57d3eff7");
        }
        assertThat(finished).extracting(MutableSpan::parentId).containsExactly("e457b5a2e4d86bd1");
    }

    private static ConsumerRecord<String, String> received(long offset, org.apache.kafka.common.header.Headers headers) {
        return new ConsumerRecord<>("orders", 0, offset, 0L, TimestampType.CREATE_TIME, 2, 3, "k1", "o-" + offset,
                new RecordHeaders(headers.toArray()), Optional.empty());
    }
}
