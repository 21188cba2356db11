package dev.lunchrush.orderservice;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Does something to the broker at a transaction's commit (freezes it, kills it): a producer interceptor, configured
 * for every producer of the service under test, that once armed counts the acknowledgements of transactional
 * producers and, when the armed batch's last record is acknowledged, runs the fault on the producer's I/O thread:
 * before the producer's flush returns, so before the commit is asked for. The commit then goes to the broker as the
 * fault left it.
 */
public final class AtCommit implements ProducerInterceptor<Object, Object> {

    private static final AtomicInteger awaited = new AtomicInteger();
    private static volatile Runnable fault = () -> { };
    private static volatile boolean done;

    private boolean transactional;

    /** The next {@code records} acknowledgements of a transactional producer end with {@code fault} done. */
    public static void arm(int records, Runnable fault) {
        AtCommit.fault = fault;
        done = false;
        awaited.set(records);
    }

    /** Whether the armed batch got to its commit and the fault was done. */
    public static boolean done() {
        return done;
    }

    @Override
    public void configure(Map<String, ?> configs) {
        transactional = configs.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG) != null;
    }

    @Override
    public ProducerRecord<Object, Object> onSend(ProducerRecord<Object, Object> record) {
        return record;
    }

    @Override
    public void onAcknowledgement(RecordMetadata metadata, Exception exception) {
        if (transactional && exception == null && awaited.get() > 0 && awaited.decrementAndGet() == 0) {
            fault.run();
            done = true;
        }
    }

    @Override
    public void close() {
    }
}
