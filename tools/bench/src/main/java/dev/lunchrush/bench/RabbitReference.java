package dev.lunchrush.bench;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConfirmListener;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.MessageProperties;

import dev.lunchrush.events.Topology;
import dev.lunchrush.localstack.access.DemoException;

/**
 * RabbitMQ's ceiling for act 1's writes, with the plain Java client and nothing else, as PerfTest's publisher
 * does it: one channel in confirm mode, persistent messages of the orders' size to a durable queue with the shared
 * queue's arguments, at most {@code window} messages unconfirmed at a time (a semaphore released by the confirm
 * listener, for one or many confirmed at once).
 */
final class RabbitReference {

    record Figures(long messages, double messagesPerSecond, int window, int messageBytes) {
    }

    private RabbitReference() {
    }

    static Figures publish(String host, int port, String user, String password, String queue, long messages, byte[] body,
            int window) {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(host);
        factory.setPort(port);
        factory.setUsername(user);
        factory.setPassword(password);
        try (Connection connection = factory.newConnection("demo-bench-reference")) {
            Channel channel = connection.createChannel();
            channel.queueDelete(queue);
            channel.queueDeclare(queue, true, false, false, Map.of("x-dead-letter-exchange", Topology.DEAD_LETTER_EXCHANGE));
            channel.confirmSelect();
            Semaphore outstanding = new Semaphore(window);
            java.util.concurrent.ConcurrentSkipListSet<Long> unconfirmed = new java.util.concurrent.ConcurrentSkipListSet<>();
            ConfirmListener listener = new ConfirmListener() {
                @Override
                public void handleAck(long tag, boolean multiple) {
                    release(tag, multiple);
                }

                @Override
                public void handleNack(long tag, boolean multiple) {
                    release(tag, multiple);
                }

                private void release(long tag, boolean multiple) {
                    int released = 0;
                    if (multiple) {
                        var head = unconfirmed.headSet(tag, true);
                        released = head.size();
                        head.clear();
                    }
                    else if (unconfirmed.remove(tag)) {
                        released = 1;
                    }
                    outstanding.release(released);
                }
            };
            channel.addConfirmListener(listener);
            long start = System.nanoTime();
            for (long i = 0; i < messages; i++) {
                outstanding.acquire();
                unconfirmed.add(channel.getNextPublishSeqNo());
                channel.basicPublish("", queue, MessageProperties.PERSISTENT_BASIC, body);
            }
            channel.waitForConfirmsOrDie(TimeUnit.MINUTES.toMillis(2));
            double seconds = (System.nanoTime() - start) / 1e9;
            channel.queueDelete(queue);
            return new Figures(messages, messages / seconds, window, body.length);
        }
        catch (IOException | TimeoutException ex) {
            throw new DemoException("the RabbitMQ reference publisher failed at " + host + ":" + port + ": " + ex.getMessage());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new DemoException("interrupted");
        }
    }
}
