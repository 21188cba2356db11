package dev.lunchrush.analyticsdashboard.receiving;

import java.io.IOException;
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
import dev.lunchrush.events.Topology;
import dev.lunchrush.support.rabbit.OrderMessages;

/**
 * Reads the shared work queue (act 1) and the dashboard's own queue (act 2) in batches. Poison is
 * rejected without requeue, so the broker dead-letters it; the rest is acknowledged at once, with one
 * acknowledgement, once it is in the aggregates.
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
        OrderMessages.Batch<Incoming> batch = OrderMessages.decodeBatch(messages, channel, Incoming::of,
                processor::deadLettered);
        try {
            for (Map.Entry<String, List<Incoming>> entry : batch.bySource().entrySet()) {
                processor.process(entry.getKey(), entry.getValue());
            }
            batch.ack(channel);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            batch.requeue(channel);
        }
        catch (RuntimeException ex) {
            // not the messages' fault (the database, most likely): give them back for a later try
            log.error("could not process {} orders, requeued", batch.orders(), ex);
            batch.requeue(channel);
        }
    }
}
