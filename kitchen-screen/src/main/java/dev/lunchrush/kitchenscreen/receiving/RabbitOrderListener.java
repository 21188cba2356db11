package dev.lunchrush.kitchenscreen.receiving;

import java.io.IOException;
import java.util.List;

import com.rabbitmq.client.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.Topology;
import dev.lunchrush.kitchenscreen.screen.KitchenScreen;
import dev.lunchrush.support.rabbit.OrderMessages;

/**
 * Reads the shared work queue (act 1) and the kitchen's own queue (acts 2 and 3). Acknowledges only
 * after the order is recorded as shown, so a crash before that gets the message redelivered.
 */
@Component
class RabbitOrderListener {

    private static final Logger log = LoggerFactory.getLogger(RabbitOrderListener.class);

    private final KitchenScreen screen;

    RabbitOrderListener(KitchenScreen screen) {
        this.screen = screen;
    }

    @RabbitListener(id = "kitchen-screen-rabbit", queues = {Topology.SHARED_QUEUE, Topology.KITCHEN_QUEUE},
            containerFactory = "orderListenerFactory", autoStartup = "${lunchrush.rabbitmq.listen:true}")
    void onMessage(Message message, Channel channel) throws IOException {
        long tag = message.getMessageProperties().getDeliveryTag();
        String source = OrderMessages.source(message);
        OrderEvent event = OrderMessages.decodeOrReject(message, channel, source, () -> screen.deadLettered(source));
        if (event == null) {
            return;
        }
        try {
            screen.accept(source, List.of(event));
            channel.basicAck(tag, false);
        }
        catch (RuntimeException ex) {
            // not the message's fault (the database, most likely): give it back for a later try
            log.error("could not show order {}, requeued", event.orderId(), ex);
            channel.basicNack(tag, false, true);
        }
    }
}
