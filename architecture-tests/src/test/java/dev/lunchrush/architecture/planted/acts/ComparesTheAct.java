package dev.lunchrush.architecture.planted.acts;

import dev.lunchrush.events.Act;

/** Planted for {@code ActRulesTests}: chooses by comparing the act to one of its constants, outside the registries. */
public final class ComparesTheAct {

    private ComparesTheAct() {
    }

    public static boolean readsTheLog(Act act) {
        return act == Act.LOG;
    }
}
