package dev.lunchrush.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.Pause;

/** The suite's waits: for the readers to have read everything there is, and for a condition within a bound. */
final class Await {

    private static final Duration READERS_CATCH_UP = Duration.ofSeconds(240);
    private static final Duration QUIET = Duration.ofSeconds(4);

    private final Readers readers;
    private final ScenarioConsole console;

    Await(Readers readers, ScenarioConsole console) {
        this.readers = readers;
        this.console = console;
    }

    /**
     * Waits until {@code ready} holds and the readers' counters have not moved for {@link #QUIET}; the counters then.
     */
    Readers.Counts readersQuiet(Scenario scenario, Predicate<Readers.Counts> ready) {
        return readersQuiet(scenario, ready, null);
    }

    /**
     * As {@link #readersQuiet(Scenario, Predicate)}; when {@code failures} is given, a timeout is one of them and the
     * counters as they stand are judged, instead of the scenario ending without figures.
     */
    Readers.Counts readersQuiet(Scenario scenario, Predicate<Readers.Counts> ready, @Nullable List<String> failures) {
        Instant deadline = Instant.now().plus(READERS_CATCH_UP);
        Readers.Counts last = null;
        Instant since = Instant.now();
        Instant nextNote = Instant.now().plusSeconds(10);
        while (true) {
            Readers.Counts counts = readers.counts();
            boolean same = last != null && Objects.equals(counts.kitchen().received(), last.kitchen().received())
                    && Objects.equals(counts.dashboard().received(), last.dashboard().received())
                    && counts.deadLettered() == last.deadLettered();
            if (!same) {
                since = Instant.now();
            }
            last = counts;
            if (same && Duration.between(since, Instant.now()).compareTo(QUIET) >= 0 && ready.test(counts)) {
                return counts;
            }
            if (Instant.now().isAfter(deadline)) {
                String why = "the readers did not finish within " + READERS_CATCH_UP.toSeconds() + " s (kitchen screen "
                        + counts.kitchen().received() + ", dashboard " + counts.dashboard().received() + ")";
                if (failures == null) {
                    throw new DemoException(why);
                }
                failures.add(why);
                return counts;
            }
            if (Instant.now().isAfter(nextNote)) {
                console.say(scenario, "… readers: kitchen screen " + counts.kitchen().received() + ", dashboard "
                        + counts.dashboard().received());
                nextNote = Instant.now().plusSeconds(10);
            }
            Pause.sleep(Duration.ofMillis(500));
        }
    }

    /** Whether {@code condition} came to hold within {@code timeout}, asked every 250 ms. */
    static boolean until(Duration timeout, BooleanSupplier condition) {
        Instant deadline = Instant.now().plus(timeout);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                return false;
            }
            Pause.sleep(Duration.ofMillis(250));
        }
        return true;
    }
}
