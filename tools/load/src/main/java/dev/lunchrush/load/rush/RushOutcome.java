package dev.lunchrush.load.rush;

import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a rush came to, for a listener: the JSON that {@code ./demo rush --json} writes, and its closing table as
 * {@code ./demo rush} prints it.
 *
 * @param json the rush's JSON, the same as {@code --json} writes
 * @param heading the line above the closing table
 * @param lesson the closing table's lines
 * @param death the sentence that says when the order service died and what died with it; null when it lived
 */
public record RushOutcome(ObjectNode json, String heading, List<LessonLine> lesson, @Nullable String death) {

    public RushOutcome {
        lesson = List.copyOf(lesson);
    }

    /**
     * A line of the closing table: its cells as printed, and the difference behind its {@code diff} cell.
     *
     * @param differencePercent (measured − predicted) ÷ predicted in %, NaN when there is nothing to compare
     * @param measuredValue the measured figure, NaN when unknown
     * @param predictedValue the predicted figure, NaN when there is none
     */
    public record LessonLine(String name, String unit, String measured, String predicted, String difference,
            String note, double differencePercent, double measuredValue, double predictedValue) {
    }
}
