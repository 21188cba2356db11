package dev.lunchrush.support.kafka;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.log.LogAccessor;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.serializer.DelegatingByTypeSerializer;
import org.springframework.kafka.support.serializer.DeserializationException;
import org.springframework.kafka.support.serializer.SerializationUtils;
import org.springframework.util.backoff.FixedBackOff;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventFormatException;
import dev.lunchrush.events.OrderEventSerializer;
import dev.lunchrush.events.Topology;
import dev.lunchrush.support.UnstorableOrderException;

/**
 * How the readers of the log handle a record they cannot take: a record that is not an order event, or an order
 * beyond {@code OrderLimits} (the ErrorHandlingDeserializer around OrderEventDeserializer hands it over as null),
 * and an order the reader's store cannot hold ({@link UnstorableOrderException}), go at once to the same partition
 * of {@code orders.DLT} with their reason in the header {@code kafka_dlt-exception-message} and are counted; any
 * other failure (the store down) is retried, never skipped, because a valid order must not be lost.
 */
public final class KafkaDeadLetters {

    private static final Logger log = LoggerFactory.getLogger(KafkaDeadLetters.class);
    private static final LogAccessor LOG_ACCESSOR = new LogAccessor(KafkaDeadLetters.class);

    private KafkaDeadLetters() {
    }

    /**
     * Writes raw poison bytes to the dead-letter topic; order events, should one ever land there, as
     * JSON. Acks from all replicas.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static KafkaTemplate<Object, Object> template(Map<String, Object> producerProperties) {
        Map<String, Object> config = new LinkedHashMap<>(producerProperties);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        Map<Class<?>, Serializer<?>> byType = new LinkedHashMap<>();
        byType.put(byte[].class, new ByteArraySerializer());
        byType.put(OrderEvent.class, new OrderEventSerializer());
        DefaultKafkaProducerFactory<Object, Object> factory = new DefaultKafkaProducerFactory<>(config,
                (Serializer) new StringSerializer(), (Serializer) new DelegatingByTypeSerializer(byType));
        return new KafkaTemplate<>(factory);
    }

    /**
     * Dead-letters unreadable records ({@link OrderEventFormatException}) and unstorable orders
     * ({@link UnstorableOrderException}), and runs {@code counter} for each.
     */
    public static DefaultErrorHandler errorHandler(KafkaTemplate<Object, Object> template, Runnable counter) {
        DeadLetterPublishingRecoverer publisher = new DeadLetterPublishingRecoverer(template,
                // the same partition of orders.DLT (spring-kafka's default name would be orders-dlt)
                (record, ex) -> new TopicPartition(Topology.ORDERS_DEAD_LETTER_TOPIC, record.partition()));
        publisher.setExceptionHeadersCreator(KafkaDeadLetters::exceptionHeaders);
        DefaultErrorHandler handler = new DefaultErrorHandler((record, ex) -> {
            publisher.accept(record, ex);
            counter.run();
        }, new FixedBackOff(1000L, FixedBackOff.UNLIMITED_ATTEMPTS));
        handler.addNotRetryableExceptions(OrderEventFormatException.class, UnstorableOrderException.class);
        return handler;
    }

    /**
     * The exception headers as spring-kafka writes them, but with the reason in {@code kafka_dlt-exception-message}:
     * the message of the codec's or the store's exception wherever it is in the chain (spring-kafka would write
     * the message of the outermost exception, "failed to deserialize" for every record the codec refuses).
     */
    private static void exceptionHeaders(Headers headers, Exception exception, boolean isKey,
            DeadLetterPublishingRecoverer.HeaderNames names) {
        DeadLetterPublishingRecoverer.HeaderNames.ExceptionInfo info = names.getExceptionInfo();
        headers.add(isKey ? info.getKeyExceptionFqcn() : info.getExceptionFqcn(), utf8(exception.getClass().getName()));
        if (!isKey && exception.getCause() != null) {
            headers.add(info.getExceptionCauseFqcn(), utf8(exception.getCause().getClass().getName()));
        }
        headers.add(isKey ? info.getKeyExceptionMessage() : info.getExceptionMessage(), utf8(reason(exception)));
        StringWriter stackTrace = new StringWriter();
        exception.printStackTrace(new PrintWriter(stackTrace));
        headers.add(isKey ? info.getKeyExceptionStacktrace() : info.getExceptionStacktrace(), utf8(stackTrace.toString()));
    }

    private static String reason(Throwable exception) {
        for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
            if (cause instanceof OrderEventFormatException || cause instanceof UnstorableOrderException) {
                return String.valueOf(cause.getMessage());
            }
        }
        return String.valueOf(exception.getMessage());
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * What a batch listener throws for the record at {@code index} of its batch that is not an order
     * event, once it has handled the records before it: the error handler dead-letters that record and
     * the batch goes on after it.
     */
    public static BatchListenerFailedException poison(ConsumerRecord<?, ?> record, int index) {
        DeserializationException failure = SerializationUtils.getExceptionFromHeader(record,
                SerializationUtils.VALUE_DESERIALIZER_EXCEPTION_HEADER, LOG_ACCESSOR);
        String reason = failure == null ? "not an order event"
                : failure.getCause() == null ? failure.getMessage() : failure.getCause().getMessage();
        log.warn("poison record at {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), reason);
        return new BatchListenerFailedException(reason, new OrderEventFormatException(reason + " (at offset "
                + record.offset() + ")", failure), index);
    }

    /**
     * What a batch listener throws for the record at {@code index} of its batch that its store could not hold,
     * once the records before it are stored: the error handler dead-letters that record with the store's reason
     * and the batch goes on after it.
     */
    public static BatchListenerFailedException unstorable(ConsumerRecord<?, ?> record, int index,
            UnstorableOrderException failure) {
        log.warn("dead-lettering the record at {}-{}@{}, which cannot be stored: {}", record.topic(), record.partition(),
                record.offset(), failure.getMessage());
        return new BatchListenerFailedException(failure.getMessage(), failure, index);
    }
}
