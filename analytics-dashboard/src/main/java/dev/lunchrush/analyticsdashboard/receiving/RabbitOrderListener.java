package dev.lunchrush.analyticsdashboard.receiving;

import java.io.IOException;
import java.util.List;

import com.rabbitmq.client.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.stereotype.Component;

import dev.lunchrush.analyticsdashboard.processing.Incoming;
import dev.lunchrush.analyticsdashboard.processing.OrderProcessor;
import dev.lunchrush.events.Topology;
import dev.lunchrush.support.rabbit.OrderDeadLetters;
import dev.lunchrush.support.rabbit.OrderMessages;
import dev.lunchrush.support.rabbit.RabbitTraceHeaders;
import dev.lunchrush.support.tracing.OrderTraces;

/**
 * Reads the shared work queue (act 1) and the dashboard's own queue (act 2) in batches. Poison (what is not an
 * order, or an order the database refuses) is dead-lettered with its reason, never requeued; the rest is
 * acknowledged at once, with one acknowledgement, once it is in the aggregates. Each traced order gets a span of
 * its handling ({@link OrderTraces}).
 */
@Component
class RabbitOrderListener {

    private static final Logger log = LoggerFactory.getLogger(RabbitOrderListener.class);

    private final OrderProcessor processor;
    private final OrderDeadLetters deadLetters;
    private final OrderTraces traces;

    RabbitOrderListener(OrderProcessor processor, OrderDeadLetters deadLetters, OrderTraces traces) {
        this.processor = processor;
        this.deadLetters = deadLetters;
        this.traces = traces;
    }

    @RabbitListener(id = "analytics-dashboard-rabbit", queues = {Topology.SHARED_QUEUE, Topology.ANALYTICS_QUEUE},
            containerFactory = "orderListenerFactory")
    void onMessages(List<Message> messages, Channel channel) throws IOException {
        try (OrderTraces.Received received = traces.received("analytics-dashboard", "rabbitmq", messages,
                RabbitTraceHeaders.MESSAGE)) {
            process(messages, channel, received);
        }
    }

    private void process(List<Message> messages, Channel channel, OrderTraces.Received received) throws IOException {
        OrderMessages.Batch<Incoming> batch = OrderMessages.decodeBatch(messages, channel, Incoming::of, deadLetters);
        try {
            batch.store(channel, processor::process);
            batch.ack(channel);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            batch.requeue(channel);
        }
        catch (RuntimeException ex) {
            // not the messages' fault (the database down): give them back for a later try
            log.error("could not process {} orders, requeued", batch.orders(), ex);
            received.failed(ex);
            batch.requeueLater(channel);
        }
    }
}
