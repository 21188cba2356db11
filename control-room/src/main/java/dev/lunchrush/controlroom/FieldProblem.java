package dev.lunchrush.controlroom;

/** A field of a request to blame, and why; the {@code errors} of a 400 problem document. */
public record FieldProblem(String field, String message) {
}
