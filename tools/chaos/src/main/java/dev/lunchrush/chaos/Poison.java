package dev.lunchrush.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.MessageProperties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderItem;
import dev.lunchrush.events.Topology;
import dev.lunchrush.localstack.access.DemoException;

/**
 * Records and messages that are not order events, one of each kind: bytes that are not JSON, JSON of the
 * wrong shape, and an otherwise well-formed order bigger than any reader takes ({@link OrderEventCodec#MAX_EVENT_BYTES}).
 */
final class Poison {

    /** The queues orders travel on in the queue acts, each of which gets the poison too. */
    static final List<String> ORDER_QUEUES = List.of(Topology.SHARED_QUEUE, Topology.KITCHEN_QUEUE, Topology.ANALYTICS_QUEUE);

    enum Kind {
        BAD_BYTES("bad bytes"), WRONG_SCHEMA("wrong schema"), OVERSIZED("oversized");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    private Poison() {
    }

    static byte[] of(Kind kind) {
        return switch (kind) {
            case BAD_BYTES -> new byte[] {(byte) 0xde, (byte) 0xad, 0, (byte) 0xbe, (byte) 0xef, '{', '"'};
            case WRONG_SCHEMA -> ("{\"menu\":\"not an order\",\"id\":\"" + UUID.randomUUID() + "\",\"items\":7}")
                    .getBytes(StandardCharsets.UTF_8);
            case OVERSIZED -> OrderEventCodec.encode(new OrderEvent("poison-" + UUID.randomUUID(), Instant.now(), "k1",
                    "c-poison", List.of(new OrderItem("ramen", 1)), "12 Mill Lane",
                    "x".repeat(OrderEventCodec.MAX_EVENT_BYTES * 3 / 2), OrderEvent.ORIGIN_LIVE, "poison", 1));
        };
    }

    /** One record of each kind on the topic, acknowledged by every in-sync replica. */
    static void intoTopic(String bootstrapServers, String topic) {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "demo-chaos-poison");
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config)) {
            for (Kind kind : Kind.values()) {
                producer.send(new ProducerRecord<>(topic, "k1", of(kind))).get(30, TimeUnit.SECONDS);
            }
        }
        catch (ExecutionException | TimeoutException ex) {
            throw new DemoException("could not write poison to " + topic + ": " + ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new DemoException("interrupted");
        }
    }

    /** One persistent message of each kind on each queue, confirmed by the broker. */
    static void intoQueues(String host, int port, String user, String password, List<String> queues) {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(host);
        factory.setPort(port);
        factory.setUsername(user);
        factory.setPassword(password);
        try (Connection connection = factory.newConnection("demo-chaos-poison"); Channel channel = connection.createChannel()) {
            channel.confirmSelect();
            for (String queue : queues) {
                for (Kind kind : Kind.values()) {
                    channel.basicPublish("", queue, true, MessageProperties.PERSISTENT_BASIC, of(kind));
                }
            }
            channel.waitForConfirmsOrDie(30_000);
        }
        catch (IOException | TimeoutException ex) {
            throw new DemoException("could not put poison on " + queues + " at " + host + ":" + port + ": " + ex.getMessage());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new DemoException("interrupted");
        }
    }
}
