package dev.lunchrush.orderservice.publishing;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.ShutdownSignalException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.amqp.rabbit.connection.Connection;
import org.springframework.amqp.rabbit.connection.ConnectionBlockedEvent;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.connection.ConnectionListener;
import org.springframework.amqp.rabbit.connection.ConnectionUnblockedEvent;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Whether RabbitMQ blocks this service's publishing. Under a memory or disk alarm the broker stops reading from
 * the connections that publish and tells them so ({@code connection.blocked}, Spring AMQP's
 * {@link ConnectionBlockedEvent}) until every alarm cleared ({@code connection.unblocked}): an order published
 * meanwhile would wait in the socket until the alarm ends. While blocked, {@link RabbitOrderPublisher} refuses
 * orders at once (a 503 that says nothing was sent) and readiness is down.
 *
 * <p>The state is the connection's (the factory's one cached connection): a connection closed or made anew is not
 * blocked until the broker says so. A broker tells a connection only when it publishes after the alarm began (a
 * RabbitMQ 3.x connection stays "blocking" until then); {@link #probe()} publishes an empty message that no queue
 * takes, so that readiness learns of an alarm before an order does.
 */
@Component
public class PublishingBlock {

    private static final Logger log = LoggerFactory.getLogger(PublishingBlock.class);

    /** A routing key no queue is bound by (the default exchange routes by queue name): the probe goes nowhere. */
    static final String PROBE_ROUTING_KEY = "lunchrush.publishing-probe.no-such-queue";

    private static final byte[] EMPTY = new byte[0];

    private final RabbitTemplate rabbit;
    private volatile @Nullable String reason;

    PublishingBlock(ConnectionFactory connectionFactory, RabbitTemplate rabbit) {
        this.rabbit = rabbit;
        connectionFactory.addConnectionListener(new ConnectionListener() {

            @Override
            public void onCreate(@Nullable Connection connection) {
                reason = null;
            }

            @Override
            public void onClose(Connection connection) {
                reason = null;
            }

            @Override
            public void onShutDown(ShutdownSignalException signal) {
                reason = null;
            }
        });
    }

    @EventListener
    void blocked(ConnectionBlockedEvent event) {
        reason = event.getReason();
        log.warn("RabbitMQ blocks publishing ({}): orders are refused until it unblocks", event.getReason());
    }

    @EventListener
    void unblocked(ConnectionUnblockedEvent event) {
        reason = null;
        log.info("RabbitMQ publishes again: its alarm cleared");
    }

    /** Why RabbitMQ blocks publishing now ("low on memory", "low on disk"), or null while it does not. */
    public @Nullable String reason() {
        return reason;
    }

    /**
     * Publishes an empty, transient message to no queue, unless blocked already: a broker under an alarm blocks the
     * connection at this publish and says so; otherwise the broker drops it. Fails when RabbitMQ cannot be reached.
     */
    public void probe() {
        if (reason != null) {
            return;
        }
        rabbit.execute(channel -> {
            channel.basicPublish("", PROBE_ROUTING_KEY, false, new AMQP.BasicProperties(), EMPTY);
            return null;
        });
    }
}
