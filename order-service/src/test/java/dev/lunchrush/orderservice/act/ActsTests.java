package dev.lunchrush.orderservice.act;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import dev.lunchrush.events.Act;
import dev.lunchrush.events.FeedStrategy;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.orderservice.feed.OrderFeed;
import dev.lunchrush.orderservice.publishing.KafkaOrderPublisher;
import dev.lunchrush.orderservice.publishing.KafkaTopology;
import dev.lunchrush.orderservice.publishing.RabbitOrderPublisher;
import dev.lunchrush.orderservice.web.BlockingWork;
import dev.lunchrush.support.readiness.SourceCheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.mockito.Mockito.mock;

/** The registry: each act to its class, every act playable, and a switch tells exactly the act switched to. */
class ActsTests {

    @Test
    void eachActIsPlayedByItsClass() {
        RabbitOrderPublisher rabbit = mock(RabbitOrderPublisher.class);
        Acts acts = new Acts(new SharedQueueAct(rabbit), new QueuePerReaderAct(rabbit),
                new MemoryFeedAct(mock(OrderFeed.class), rabbit, mock(BlockingWork.class)),
                new LogAct(mock(KafkaOrderPublisher.class), mock(KafkaTopology.class)));
        assertThat(acts.output(Act.SHARED_QUEUE)).isInstanceOf(SharedQueueAct.class);
        assertThat(acts.output(Act.QUEUE_PER_READER)).isInstanceOf(QueuePerReaderAct.class);
        assertThat(acts.output(Act.MEMORY_FEED)).isInstanceOf(MemoryFeedAct.class);
        assertThat(acts.output(Act.LOG)).isInstanceOf(LogAct.class).matches(ActOutput::canBeAskedForAnOrder);
    }

    @Test
    void onlyTheActSwitchedToIsEntered() {
        Map<Act, Recording> outputs = new EnumMap<>(Act.class);
        for (Act act : Act.values()) {
            outputs.put(act, new Recording());
        }
        Acts acts = new Acts(outputs);
        ActState from = ActState.initial();
        for (Act act : Act.values()) {
            ActState to = new ActState(act, FeedStrategy.DROP, 100);
            acts.actChanged(new ActChanged(from, to));
            from = to;
        }
        outputs.forEach((act, output) -> assertThat(output.entered).containsExactly(new ActState(act, FeedStrategy.DROP, 100)));
    }

    @Test
    void anActWithoutAnOutputStopsTheStart() {
        Map<Act, Recording> outputs = new EnumMap<>(Act.class);
        outputs.put(Act.first(), new Recording());
        assertThatIllegalStateException().isThrownBy(() -> new Acts(outputs)).withMessageContaining("has no output");
    }

    private static final class Recording implements ActOutput {

        private final List<ActState> entered = new ArrayList<>();

        @Override
        public CompletableFuture<WrittenOrder> write(ActState state, Supplier<OrderEvent> event) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<SourceCheck> needs(OutputChecks checks) {
            return List.of();
        }

        @Override
        public void entered(ActState state) {
            entered.add(state);
        }
    }
}
