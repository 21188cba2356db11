package dev.lunchrush.orderservice.act;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.Act;

/**
 * The one place that maps an {@link Act} to the class that plays it ({@link ActOutput}, one bean per act). It
 * refuses to start unless every act has exactly one output, and tells an act when it is switched to. Nothing else
 * in the services chooses by comparing acts (an architecture rule holds that).
 */
@Component
public class Acts {

    private final Map<Act, ActOutput> outputs = new EnumMap<>(Act.class);

    Acts(List<ActOutput> outputs) {
        for (ActOutput output : outputs) {
            ActOutput other = this.outputs.put(output.act(), output);
            if (other != null) {
                throw new IllegalStateException("act " + output.act().id() + " has two outputs: "
                        + other.getClass().getSimpleName() + " and " + output.getClass().getSimpleName());
            }
        }
        for (Act act : Act.values()) {
            if (!this.outputs.containsKey(act)) {
                throw new IllegalStateException("act " + act.id() + " has no output (a class implementing ActOutput)");
            }
        }
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
