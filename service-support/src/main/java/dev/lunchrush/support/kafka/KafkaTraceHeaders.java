package dev.lunchrush.support.kafka;

import java.nio.charset.StandardCharsets;

import io.micrometer.tracing.propagation.Propagator;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/** A trace's context in a Kafka record's headers, as text ({@link dev.lunchrush.support.tracing.OrderTraces}). */
public final class KafkaTraceHeaders {

    /** Reads a header of a received record. */
    public static final Propagator.Getter<ConsumerRecord<?, ?>> RECORD = (record, key) -> {
        Header header = record.headers().lastHeader(key);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    };

    /** Writes a header of a record to be sent, in place of one of the same name. */
    public static final Propagator.Setter<Headers> HEADERS = (headers, key, value) ->
            headers.remove(key).add(key, value.getBytes(StandardCharsets.UTF_8));

    private KafkaTraceHeaders() {
    }
}
