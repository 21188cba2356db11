package dev.lunchrush.kitchenscreen.receiving;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import com.rabbitmq.client.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.Topology;
import dev.lunchrush.kitchenscreen.screen.KitchenScreen;
import dev.lunchrush.support.rabbit.OrderDeadLetters;
import dev.lunchrush.support.rabbit.OrderMessages;
import dev.lunchrush.support.rabbit.RabbitTraceHeaders;
import dev.lunchrush.support.tracing.OrderTraces;

/**
 * Reads the shared work queue (act 1) and the kitchen's own queue (acts 2 and 3) in small batches.
 * Acknowledges a batch only after its orders are recorded as shown, so a crash before that gets them
 * redelivered (and the journal's ids keep a redelivered order from being shown twice). Poison, and an order the
 * journal cannot take, is dead-lettered with its reason, never requeued. Each traced order gets a span of its
 * handling ({@link OrderTraces}), and the screen links to its trace.
 */
@Component
class RabbitOrderListener {

    private static final Logger log = LoggerFactory.getLogger(RabbitOrderListener.class);

    private final KitchenScreen screen;
    private final OrderDeadLetters deadLetters;
    private final OrderTraces traces;

    RabbitOrderListener(KitchenScreen screen, OrderDeadLetters deadLetters, OrderTraces traces) {
        this.screen = screen;
        this.deadLetters = deadLetters;
        this.traces = traces;
    }

    @RabbitListener(id = "kitchen-screen-rabbit", queues = {Topology.SHARED_QUEUE, Topology.KITCHEN_QUEUE},
            containerFactory = "orderListenerFactory")
    void onMessages(List<Message> messages, Channel channel) throws IOException {
        try (OrderTraces.Received received = traces.received("kitchen-screen", "rabbitmq", messages,
                RabbitTraceHeaders.MESSAGE)) {
            show(messages, channel, received);
        }
    }

    private void show(List<Message> messages, Channel channel, OrderTraces.Received received) throws IOException {
        Map<String, String> traced = new HashMap<>();
        for (int i = 0; i < messages.size(); i++) {
            String trace = received.sampledTraceId(i);
            String orderId = messages.get(i).getMessageProperties().getMessageId();
            if (trace != null && orderId != null) {
                traced.put(orderId, trace);
            }
        }
        OrderMessages.Batch<OrderEvent> batch = OrderMessages.decodeBatch(messages, channel, Function.identity(),
                deadLetters);
        try {
            batch.store(channel, (source, orders) -> screen.accept(source, orders, traced));
            batch.ack(channel);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            batch.requeue(channel);
        }
        catch (RuntimeException ex) {
            // not the messages' fault (the journal's file): give them back for a later try
            log.error("could not show {} orders, requeued", batch.orders(), ex);
            received.failed(ex);
            batch.requeueLater(channel);
        }
    }
}
