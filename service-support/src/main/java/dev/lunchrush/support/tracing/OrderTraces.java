package dev.lunchrush.support.tracing;

import java.util.List;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.jspecify.annotations.Nullable;

/**
 * The spans of an order's path that the framework's observations do not make: the readers take orders in batches,
 * and the order service writes to Kafka with its own producer. A reader's span of an order continues the trace
 * that the order's Kafka headers or AMQP properties carry, starts when the order reached the reader and ends when
 * the reader has handled it: the gap before it is the order's wait. The sampling is decided once, when the order is
 * placed ({@code management.tracing.sampling.probability}); only a sampled order carries its trace, and an order that
 * carries none (not sampled, an import, a backfill) gets no span.
 *
 * <p>With tracing off ({@code management.tracing.export.enabled=false}) the tracer is a no-op and so is this.
 */
public final class OrderTraces {

    /** The headers a trace's context travels in: W3C's, which the services write, and B3's, which they also read. */
    private static final List<String> CONTEXT_HEADERS = List.of("traceparent", "b3", "X-B3-TraceId");

    private final Tracer tracer;
    private final Propagator propagator;

    public OrderTraces(Tracer tracer, Propagator propagator) {
        this.tracer = tracer;
        this.propagator = propagator;
    }

    /** No traces: for code run without the tracing configuration. */
    public static OrderTraces none() {
        return new OrderTraces(Tracer.NOOP, Propagator.NOOP);
    }

    public Tracer tracer() {
        return tracer;
    }

    /**
     * A span for each of a batch's orders that carries a trace, started now as a child of the sender's span:
     * {@code reader} names it (for example {@code "kitchen-screen"}), {@code source} is where the orders came
     * from ({@code "kafka"}, {@code "rabbitmq"}). Close the result once the batch is handled.
     */
    public <C> Received received(String reader, String source, List<? extends C> carriers, Propagator.Getter<C> headers) {
        Span[] spans = new Span[carriers.size()];
        for (int i = 0; i < spans.length; i++) {
            C carrier = carriers.get(i);
            if (carriesTrace(carrier, headers)) {
                spans[i] = propagator.extract(carrier, headers).name(reader + " receive").kind(Span.Kind.CONSUMER)
                        .remoteServiceName(source).start();
            }
        }
        return new Received(spans);
    }

    /**
     * A producer's span of one order, a child of {@code parent} (the order's span, in scope when the order was taken:
     * {@code tracer().currentSpan()} then), its context written into the record's or message's headers with
     * {@code setter}; end it when the broker answered.
     */
    public <C> Span sending(@Nullable Span parent, String destination, String orderId, C carrier,
            Propagator.Setter<C> setter) {
        if (parent == null || parent.isNoop()) {
            // not traced: no headers, and the readers make no span either
            return Span.NOOP;
        }
        Span span = tracer.spanBuilder().setParent(parent.context()).name("send " + destination).kind(Span.Kind.PRODUCER)
                .remoteServiceName(destination).tag("order.id", orderId).start();
        propagator.inject(span.context(), carrier, setter);
        return span;
    }

    private static <C> boolean carriesTrace(C carrier, Propagator.Getter<C> headers) {
        for (String header : CONTEXT_HEADERS) {
            if (headers.get(carrier, header) != null) {
                return true;
            }
        }
        return false;
    }

    /** The spans of one batch's orders; an order without a trace has none. */
    public static final class Received implements AutoCloseable {

        private final @Nullable Span[] spans;

        Received(@Nullable Span[] spans) {
            this.spans = spans;
        }

        /** The trace of the batch's {@code index}th order when it was sampled (it is in Zipkin then), else null. */
        public @Nullable String sampledTraceId(int index) {
            Span span = spans[index];
            return span == null || span.isNoop() ? null : span.context().traceId();
        }

        /** Marks every span as failed; they still end at {@link #close()}. */
        public void failed(Throwable failure) {
            for (Span span : spans) {
                if (span != null) {
                    span.error(failure);
                }
            }
        }

        @Override
        public void close() {
            for (Span span : spans) {
                if (span != null) {
                    span.end();
                }
            }
        }
    }
}
