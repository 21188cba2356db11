package dev.lunchrush.controlroom;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.support.problems.ProblemException;

/**
 * Every error of the API as {@code application/problem+json}: Spring MVC's own (an unreadable body, a wrong
 * method …) through {@link ResponseEntityExceptionHandler}, ours through {@link ProblemException} with an
 * {@code errors} array of {@code {field, message}} where a field is to blame, and a service of the stack that did
 * not answer or refused ({@link DemoException}) as 502 with its sentence.
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    @ExceptionHandler(ProblemException.class)
    ResponseEntity<ProblemDetail> problem(ProblemException ex) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(ex.status(), ex.getMessage());
        problem.setTitle(ex.title());
        if (!ex.errors().isEmpty()) {
            problem.setProperty("errors", ex.errors());
        }
        return respond(ex.status(), problem);
    }

    /** A service that did not answer, or refused what the control room asked of it. */
    @ExceptionHandler(DemoException.class)
    ResponseEntity<ProblemDetail> stack(DemoException ex) {
        log.warn("the stack refused or did not answer: {}", ex.getMessage());
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_GATEWAY, ex.getMessage());
        problem.setTitle("The stack did not do it");
        return respond(HttpStatus.BAD_GATEWAY, problem);
    }

    private static ResponseEntity<ProblemDetail> respond(HttpStatus status, ProblemDetail problem) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
    }
}
