package dev.lunchrush.load.rush;

import dev.lunchrush.lesson.LessonArithmetic;

/**
 * Told what a rush does while it runs, besides what it prints: the control room's page follows a rush through it.
 * Called on the rush's own thread; a listener returns quickly.
 */
public interface RushListener {

    RushListener NONE = new RushListener() {
    };

    /** Before the first order: the profile's first line, as printed, and what the lesson predicts for this rush. */
    default void started(String description, LessonArithmetic predicted) {
    }

    /** Once a second: the live table's row of that second (printed or not). */
    default void row(LiveRow row) {
    }

    /** At the end: what the rush came to, as {@code --json} writes it and as its closing table prints it. */
    default void finished(RushOutcome outcome) {
    }
}
