package dev.lunchrush.reportreplayer.web;

import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import dev.lunchrush.reportreplayer.log.LogUnavailableException;
import dev.lunchrush.support.problems.ProblemType;

/** Kafka unreachable, or no log yet: 503, so that the caller knows nothing happened and may retry. */
@RestControllerAdvice
class LogUnavailableHandler {

    @ExceptionHandler(LogUnavailableException.class)
    ProblemDetail logUnavailable(LogUnavailableException ex) {
        ProblemDetail problem = ProblemType.UNAVAILABLE.problem(ex.getMessage());
        problem.setTitle("The log is unavailable");
        return problem;
    }

    @ExceptionHandler(UnknownTopicOrPartitionException.class)
    ProblemDetail noLog(UnknownTopicOrPartitionException ex) {
        ProblemDetail problem = ProblemType.UNAVAILABLE.problem(
                "the log's topic does not exist yet: " + ex.getMessage());
        problem.setTitle("The log is unavailable");
        return problem;
    }
}
