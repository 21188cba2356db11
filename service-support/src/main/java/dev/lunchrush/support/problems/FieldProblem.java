package dev.lunchrush.support.problems;

/** One thing wrong with a request: the field (a JSON path such as {@code items[0].quantity}) and why. */
public record FieldProblem(String field, String message) {
}
