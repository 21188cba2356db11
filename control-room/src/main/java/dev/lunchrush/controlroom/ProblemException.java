package dev.lunchrush.controlroom;

import java.util.List;

import org.springframework.http.HttpStatus;

/** A request refused, as a problem document: its status, a sentence, and the fields to blame (400) if any. */
public class ProblemException extends RuntimeException {

    private final HttpStatus status;
    private final String title;
    private final List<FieldProblem> errors;

    public ProblemException(HttpStatus status, String title, String detail, List<FieldProblem> errors) {
        super(detail);
        this.status = status;
        this.title = title;
        this.errors = List.copyOf(errors);
    }

    /** Bad input: 400 naming the fields. */
    public static ProblemException badRequest(List<FieldProblem> errors) {
        String detail = errors.size() == 1 ? errors.get(0).field() + ": " + errors.get(0).message()
                : errors.size() + " fields are wrong: " + String.join(", ", errors.stream().map(FieldProblem::field).toList());
        return new ProblemException(HttpStatus.BAD_REQUEST, "Bad request", detail, errors);
    }

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return title;
    }

    public List<FieldProblem> errors() {
        return errors;
    }
}
