package dev.lunchrush.reportreplayer.web;

import java.net.URI;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/** The errors the replayer answers with, as {@code application/problem+json}. */
public final class Problems {

    private Problems() {
    }

    /** 400 naming the field at fault; nothing was started or written. */
    public static ErrorResponseException invalid(String field, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, detail);
        problem.setTitle("Invalid " + field);
        problem.setType(URI.create("https://lunchrush.dev/problems/invalid-input"));
        problem.setProperty("field", field);
        return new ErrorResponseException(HttpStatus.BAD_REQUEST, problem, null);
    }

    public static ErrorResponseException conflict(String title, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, detail);
        problem.setTitle(title);
        return new ErrorResponseException(HttpStatus.CONFLICT, problem, null);
    }

    public static ErrorResponseException notFound(String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, detail);
        return new ErrorResponseException(HttpStatus.NOT_FOUND, problem, null);
    }
}
