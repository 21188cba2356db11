package dev.lunchrush.reportreplayer.web;

import java.util.List;

import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

import dev.lunchrush.support.problems.FieldProblem;
import dev.lunchrush.support.problems.ProblemType;

/** The errors the replayer answers with, as {@code application/problem+json}. */
public final class Problems {

    private Problems() {
    }

    /**
     * 400 naming the field at fault, in {@code field} and, as every service names its fields, in {@code errors};
     * nothing was started or written.
     */
    public static ErrorResponseException invalid(String field, String detail) {
        ProblemDetail problem = ProblemType.INVALID_INPUT.problem(detail);
        problem.setTitle("Invalid " + field);
        problem.setProperty("field", field);
        problem.setProperty("errors", List.of(new FieldProblem(field, detail)));
        return new ErrorResponseException(ProblemType.INVALID_INPUT.status(), problem, null);
    }

    public static ErrorResponseException conflict(String title, String detail) {
        ProblemDetail problem = ProblemType.CONFLICT.problem(detail);
        problem.setTitle(title);
        return new ErrorResponseException(ProblemType.CONFLICT.status(), problem, null);
    }

    public static ErrorResponseException notFound(String detail) {
        return new ErrorResponseException(ProblemType.NOT_FOUND.status(), ProblemType.NOT_FOUND.problem(detail), null);
    }
}
