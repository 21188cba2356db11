package dev.lunchrush.chaos;

import java.util.List;

/**
 * One scenario's line of the table.
 *
 * @param acknowledged orders answered 201
 * @param inLog the acknowledged orders found in the log ({@code -1} where the act has no log)
 * @param kitchen orders the kitchen screen counted from the scenario's source while it ran ({@code -1}: not counted)
 * @param dashboard orders the analytics dashboard counted from it ({@code -1}: not counted)
 * @param lost acknowledged orders that no reader (or the log) has
 * @param duplicated orders in the log twice, or counted twice by a reader of the log; for a queue act, a lower
 *     bound of the readers' redelivered counts
 * @param refused requests answered 503
 * @param unknown requests without an answer (timed out or cut off): may or may not have been written
 * @param extra orders written without a 201 (after a 503 or without an answer)
 * @param slowestMillis the longest any request took
 * @param notes what happened during the fault
 * @param failures why the verdict is not "pass"; empty when it is
 */
record Result(String scenario, String act, long acknowledged, long inLog, long kitchen, long dashboard, long lost,
        long duplicated, long refused, long unknown, long extra, long slowestMillis, List<String> notes,
        List<String> failures) {

    boolean passed() {
        return failures.isEmpty();
    }

    String verdict() {
        return passed() ? "pass" : "FAIL";
    }

    static Result broken(String scenario, String act, String why, List<String> notes) {
        return new Result(scenario, act, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, notes, List.of(why));
    }
}
