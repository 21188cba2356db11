package dev.lunchrush.support.problems;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link ProblemType}: one URI per kind, and Spring's own problems typed by their status, never over ours. */
class ProblemTypeTests {

    @Test
    void eachKindHasAUriOfItsOwnUnderTheBase() {
        List<String> uris = Arrays.stream(ProblemType.values()).map(kind -> kind.uri().toString()).toList();
        assertThat(uris).doesNotHaveDuplicates().allSatisfy(uri -> assertThat(uri).startsWith(ProblemType.BASE));
    }

    @Test
    void aProblemOfAKindHasItsTypeStatusAndTitle() {
        ProblemDetail problem = ProblemType.OUTCOME_UNKNOWN.problem("the broker did not answer in time");
        assertThat(problem.getType()).isEqualTo(ProblemType.OUTCOME_UNKNOWN.uri());
        assertThat(problem.getStatus()).isEqualTo(503);
        assertThat(problem.getTitle()).isEqualTo("Outcome unknown");
        assertThat(problem.getDetail()).isEqualTo("the broker did not answer in time");
    }

    @Test
    void springsProblemsGetTheKindOfTheirStatus() {
        for (int status : new int[] {400, 401, 403, 404, 405, 406, 408, 409, 413, 415, 500, 503}) {
            ProblemDetail problem = ProblemType.typed(ProblemDetail.forStatus(status));
            assertThat(problem.getType()).as("status %d", status).isNotNull();
            assertThat(ProblemType.forStatus(status)).as("status %d", status)
                    .hasValueSatisfying(kind -> assertThat(kind.status().value()).isEqualTo(status));
        }
        assertThat(ProblemType.forStatus(HttpStatus.NOT_IMPLEMENTED.value())).as("a status no kind is of").isEmpty();
    }

    @Test
    void aTypeGivenIsKept() {
        ProblemDetail running = ProblemType.STILL_RUNNING.problem("the first request is still running");
        assertThat(ProblemType.typed(running).getType()).isEqualTo(ProblemType.STILL_RUNNING.uri());
    }

    @Test
    void aProblemExceptionsDocumentHasItsTitleAndTheFieldsToBlame() {
        ProblemException invalid = ProblemException.invalid("Invalid order",
                List.of(new FieldProblem("items[0].quantity", "must be between 1 and 50")));
        ProblemDetail problem = invalid.problem("/orders");
        assertThat(problem.getType()).isEqualTo(ProblemType.INVALID_INPUT.uri());
        assertThat(problem.getTitle()).isEqualTo("Invalid order");
        assertThat(problem.getInstance()).hasToString("/orders");
        assertThat(problem.getProperties()).containsKey("errors");
    }
}
