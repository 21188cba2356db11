package dev.lunchrush.chaos;

import java.util.List;
import java.util.Set;

import dev.lunchrush.events.Topology;

/**
 * The oracle of act 1, one queue both readers compete on: once the queue has drained, every acknowledged order is
 * on the kitchen screen (by id) or was counted by the dashboard, which keeps no ids (by count).
 */
final class SharedQueueOracle extends StreamOracle {

    SharedQueueOracle(Readers readers, Await await, ScenarioConsole console) {
        super(readers, await, console);
    }

    @Override
    Result judge(Scenario scenario, Marks marks, OrderStream stream, List<String> notes, List<String> failures) {
        Set<String> acknowledged = Set.copyOf(stream.acknowledged);
        console.say(scenario, "waiting for the shared queue to drain");
        Readers.Counts before = marks.counts();
        Readers.Counts after = await.readersQuiet(scenario, counts -> readers.queueDepth(Topology.SHARED_QUEUE) == 0, failures);
        long kitchen = after.kitchen("shared-queue") - before.kitchen("shared-queue");
        long dashboard = after.dashboard("shared-queue") - before.dashboard("shared-queue");
        // what the kitchen screen did not show went to the dashboard, which counts without ids
        long notShown = readers.notShownOnKitchenScreen(acknowledged);
        long lost = Math.max(0, notShown - dashboard);
        long couldBeWritten = acknowledged.size() + stream.refused.get() + stream.unanswered.get();
        long duplicated = Math.max(0, kitchen + dashboard - couldBeWritten);
        if (lost > 0) {
            failures.add(notShown + " acknowledged orders did not reach the kitchen screen and the dashboard counted only "
                    + dashboard);
        }
        notes.add("kitchen screen showed " + (acknowledged.size() - notShown) + " of the " + acknowledged.size()
                + " acknowledged orders, the dashboard counted " + dashboard + " (it keeps no ids: checked by count); "
                + (after.duplicatesIgnored() - before.duplicatesIgnored()) + " redeliveries refused by the kitchen screen");
        return new Result(scenario.id, scenario.act.id(), acknowledged.size(), -1, kitchen, dashboard, lost, duplicated,
                stream.refused.get(), stream.unanswered.get(), Math.max(0, kitchen + dashboard - acknowledged.size()),
                stream.slowestMillis.get(), notes, failures);
    }
}
