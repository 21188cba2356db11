package dev.lunchrush.support.rabbit;

import io.micrometer.tracing.propagation.Propagator;

import org.springframework.amqp.core.Message;

/** A trace's context in an AMQP message's headers ({@link dev.lunchrush.support.tracing.OrderTraces}). */
public final class RabbitTraceHeaders {

    /** Reads a header of a received message. */
    public static final Propagator.Getter<Message> MESSAGE = (message, key) -> {
        Object value = message.getMessageProperties().getHeader(key);
        return value == null ? null : value.toString();
    };

    private RabbitTraceHeaders() {
    }
}
