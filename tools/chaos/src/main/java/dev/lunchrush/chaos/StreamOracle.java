package dev.lunchrush.chaos;

import java.util.List;

/**
 * Judges a scenario that ran under a stream of orders, once the stream is over: waits for the readers to read what
 * is left, holds every acknowledged order against what they (and, for the log's acts, the log) have, and returns
 * the scenario's line of the table.
 */
abstract class StreamOracle {

    /** The readers' counts, queues and screens. */
    protected final Readers readers;
    /** Waiting for the readers to go quiet. */
    protected final Await await;
    /** The scenario's console lines. */
    protected final ScenarioConsole console;

    StreamOracle(Readers readers, Await await, ScenarioConsole console) {
        this.readers = readers;
        this.await = await;
        this.console = console;
    }

    /**
     * @param marks what the scenario is measured from
     * @param stream the stream, closed
     * @param notes what happened during the fault; the oracle adds what it saw
     * @param failures the fault's own failures; the oracle adds its own
     */
    abstract Result judge(Scenario scenario, Marks marks, OrderStream stream, List<String> notes, List<String> failures);
}
