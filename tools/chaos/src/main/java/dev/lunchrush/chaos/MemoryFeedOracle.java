package dev.lunchrush.chaos;

import java.util.List;
import java.util.Set;

import dev.lunchrush.events.Topology;

/**
 * The oracle of act 3, the kitchen's own queue and the in-memory feed to the analytics job: once both have
 * drained, every acknowledged order is on the kitchen screen (by id) and was counted by the dashboard through the
 * feed (by count).
 */
final class MemoryFeedOracle extends StreamOracle {

    MemoryFeedOracle(Readers readers, Await await, ScenarioConsole console) {
        super(readers, await, console);
    }

    @Override
    Result judge(Scenario scenario, Marks marks, OrderStream stream, List<String> notes, List<String> failures) {
        Set<String> acknowledged = Set.copyOf(stream.acknowledged);
        console.say(scenario, "waiting for the kitchen queue and the feed to drain");
        Readers.Counts before = marks.counts();
        Readers.Counts after = await.readersQuiet(scenario, counts -> readers.queueDepth(Topology.KITCHEN_QUEUE) == 0
                && readers.feedBuffered() == 0, failures);
        long kitchen = after.kitchen("own-queue") - before.kitchen("own-queue");
        long dashboard = after.dashboard("feed") - before.dashboard("feed");
        long notShown = readers.notShownOnKitchenScreen(acknowledged);
        long notCounted = Math.max(0, acknowledged.size() - dashboard);
        if (notShown > 0) {
            failures.add(notShown + " acknowledged orders are not on the kitchen screen");
        }
        if (notCounted > 0) {
            failures.add("the dashboard counted " + dashboard + " orders from the feed, " + acknowledged.size()
                    + " were acknowledged");
        }
        long couldBeWritten = acknowledged.size() + stream.refused.get() + stream.unanswered.get();
        notes.add("kitchen screen showed " + (acknowledged.size() - notShown) + " of the " + acknowledged.size()
                + " acknowledged orders (by id); the dashboard counted " + dashboard + " from the feed");
        return new Result(scenario.id, scenario.act.id(), acknowledged.size(), -1, kitchen, dashboard,
                notShown + notCounted, Math.max(0, Math.max(kitchen, dashboard) - couldBeWritten), stream.refused.get(),
                stream.unanswered.get(), Math.max(0, Math.max(kitchen, dashboard) - acknowledged.size()),
                stream.slowestMillis.get(), notes, failures);
    }
}
