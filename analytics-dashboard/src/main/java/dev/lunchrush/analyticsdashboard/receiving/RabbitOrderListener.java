package dev.lunchrush.analyticsdashboard.receiving;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.rabbitmq.client.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.stereotype.Component;

import dev.lunchrush.analyticsdashboard.processing.Incoming;
import dev.lunchrush.analyticsdashboard.processing.OrderProcessor;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.Topology;
import dev.lunchrush.support.rabbit.OrderMessages;

/**
 * Reads the shared work queue (act 1) and the dashboard's own queue (act 2) in batches. Poison is
 * rejected without requeue, so the broker dead-letters it; the rest is acknowledged once it is in the
 * aggregates.
 */
@Component
class RabbitOrderListener {

    private static final Logger log = LoggerFactory.getLogger(RabbitOrderListener.class);

    private final OrderProcessor processor;

    RabbitOrderListener(OrderProcessor processor) {
        this.processor = processor;
    }

    @RabbitListener(id = "analytics-dashboard-rabbit", queues = {Topology.SHARED_QUEUE, Topology.ANALYTICS_QUEUE},
            containerFactory = "orderListenerFactory", autoStartup = "${lunchrush.rabbitmq.listen:true}")
    void onMessages(List<Message> messages, Channel channel) throws IOException {
        Map<String, List<Incoming>> bySource = new LinkedHashMap<>();
        List<Long> tags = new ArrayList<>();
        for (Message message : messages) {
            String source = OrderMessages.source(message);
            OrderEvent event = OrderMessages.decodeOrReject(message, channel, source, () -> processor.deadLettered(source));
            if (event != null) {
                bySource.computeIfAbsent(source, s -> new ArrayList<>()).add(Incoming.of(event));
                tags.add(message.getMessageProperties().getDeliveryTag());
            }
        }
        try {
            for (Map.Entry<String, List<Incoming>> entry : bySource.entrySet()) {
                processor.process(entry.getKey(), entry.getValue());
            }
            for (long tag : tags) {
                channel.basicAck(tag, false);
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            nackAll(channel, tags);
        }
        catch (RuntimeException ex) {
            // not the messages' fault (the database, most likely): give them back for a later try
            log.error("could not process {} orders, requeued", tags.size(), ex);
            nackAll(channel, tags);
        }
    }

    private static void nackAll(Channel channel, List<Long> tags) throws IOException {
        for (long tag : tags) {
            channel.basicNack(tag, false, true);
        }
    }
}
