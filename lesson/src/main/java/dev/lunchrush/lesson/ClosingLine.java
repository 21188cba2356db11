package dev.lunchrush.lesson;

/**
 * One line of the closing table: a figure measured in the rush against what the lesson predicts for it.
 *
 * @param measured NaN when the rush could not measure it
 * @param predicted NaN when the act predicts nothing for it, infinite for "never"
 */
public record ClosingLine(String name, String unit, double measured, double predicted, String note) {

    public double differencePercent() {
        return LessonArithmetic.differencePercent(measured, predicted);
    }
}
