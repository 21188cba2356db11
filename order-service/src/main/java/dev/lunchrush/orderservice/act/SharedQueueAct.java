package dev.lunchrush.orderservice.act;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.publishing.RabbitOrderPublisher;
import dev.lunchrush.support.readiness.SourceCheck;

/** Act 1: each order to the one RabbitMQ work queue that both readers compete on. */
@Component
class SharedQueueAct implements ActOutput {

    private final RabbitOrderPublisher rabbit;

    SharedQueueAct(RabbitOrderPublisher rabbit) {
        this.rabbit = rabbit;
    }

    @Override
    public CompletableFuture<WrittenOrder> write(ActState state, Supplier<OrderEvent> events) {
        OrderEvent event = events.get();
        byte[] body = OrderEventCodec.encode(event);
        return rabbit.publish("", Topology.SHARED_QUEUE, event, body)
                .handle((confirmed, failure) -> WrittenOrder.answered(event, body, failure));
    }

    /** RabbitMQ answers and does not block publishing. */
    @Override
    public List<SourceCheck> needs(OutputChecks checks) {
        return List.of(checks.rabbitmq(), checks.rabbitmqPublishing());
    }
}
