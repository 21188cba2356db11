package dev.lunchrush.architecture.planted.acts;

import dev.lunchrush.events.Act;

/** Planted for {@code ActRulesTests}: chooses by a {@code switch} on the act, outside the registries. */
public final class SwitchesOnTheAct {

    private SwitchesOnTheAct() {
    }

    public static String source(Act act) {
        return switch (act) {
            case SHARED_QUEUE, QUEUE_PER_READER -> "queue";
            case MEMORY_FEED -> "feed";
            case LOG -> "log";
        };
    }
}
