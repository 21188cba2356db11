package dev.lunchrush.orderservice.act;

import java.util.EnumMap;
import java.util.Map;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.Act;

/**
 * The one place that maps an {@link Act} to the class that plays it ({@link ActOutput}): an act's entry here is
 * what makes it playable. It refuses to start unless every act has its output, and tells an act when it is switched
 * to. Nothing else in the services chooses by comparing acts (an architecture rule holds that).
 */
@Component
public class Acts {

    private final Map<Act, ActOutput> outputs;

    @Autowired
    Acts(SharedQueueAct sharedQueue, QueuePerReaderAct queuePerReader, MemoryFeedAct memoryFeed, LogAct log) {
        this(Map.of(Act.SHARED_QUEUE, sharedQueue, Act.QUEUE_PER_READER, queuePerReader, Act.MEMORY_FEED, memoryFeed,
                Act.LOG, log));
    }

    Acts(Map<Act, ? extends ActOutput> outputs) {
        for (Act act : Act.values()) {
            if (!outputs.containsKey(act)) {
                throw new IllegalStateException("act " + act.id() + " has no output (its ActOutput class, entered in Acts)");
            }
        }
        this.outputs = new EnumMap<>(outputs);
    }

    /** The output that plays {@code act}. */
    public ActOutput output(Act act) {
        return outputs.get(act);
    }

    /** Called on the switching thread, inside {@link CurrentAct#change}, after the new state is saved. */
    @EventListener
    void actChanged(ActChanged change) {
        output(change.current().act()).entered(change.current());
    }
}
