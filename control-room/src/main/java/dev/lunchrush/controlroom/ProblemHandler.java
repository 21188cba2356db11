package dev.lunchrush.controlroom;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.support.problems.ProblemType;
import dev.lunchrush.support.problems.ServletProblems;

/**
 * A service of the stack that did not answer or refused ({@link DemoException}) as 502 with its sentence, type
 * {@code stack-failed}. Every other error of the API is a problem document of {@link ServletProblems}, every
 * servlet service's handler: Spring MVC's own, and ours ({@code ProblemException}) with an {@code errors} array of
 * {@code {field, message}} where a field is to blame.
 */
@RestControllerAdvice
class ProblemHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    /** A service that did not answer, or refused what the control room asked of it. */
    @ExceptionHandler(DemoException.class)
    ResponseEntity<ProblemDetail> stack(DemoException ex) {
        log.warn("the stack refused or did not answer: {}", ex.getMessage());
        ProblemDetail problem = ProblemType.STACK_FAILED.problem(ex.getMessage());
        return ResponseEntity.status(ProblemType.STACK_FAILED.status()).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }
}
