package dev.lunchrush.orderservice.act;

import java.util.Arrays;

import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import dev.lunchrush.events.ActRequest;
import dev.lunchrush.events.Act;
import dev.lunchrush.events.FeedStrategy;
import dev.lunchrush.support.problems.FieldProblem;
import dev.lunchrush.support.problems.ProblemException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** {@code PUT /admin/act}'s body against {@link ActRequest}'s constraints: every field at fault named at once. */
class ActRequestTests {

    private static final ValidatorFactory VALIDATION = Validation.buildDefaultValidatorFactory();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ActController controller = new ActController(null, null, VALIDATION.getValidator());

    @AfterAll
    static void close() {
        VALIDATION.close();
    }

    @Test
    void everyFieldThatIsWrongIsNamed() {
        ProblemException problem = catchThrowableOfType(ProblemException.class,
                () -> controller.parse(JSON.readTree("{\"act\": \"lunch\", \"strategy\": \"panic\", \"capacity\": 0, \"speed\": 1}")));
        assertThat(problem.errors()).containsExactly(
                new FieldProblem("speed", "unknown field; allowed are act, strategy, capacity"),
                new FieldProblem("act", "must be one of shared-queue, queue-per-reader, memory-feed, log"),
                new FieldProblem("capacity", "must be at least 1"),
                new FieldProblem("strategy", "must be one of unbounded, block, drop, throttle"));
        assertThat(catchThrowableOfType(ProblemException.class, () -> controller.parse(JSON.readTree("{\"act\": \" \", \"capacity\": \"lots\"}")))
                .errors()).containsExactly(
                        new FieldProblem("capacity", "must be a whole number of events, was \"lots\""),
                        new FieldProblem("act", "is required and must not be blank"));
    }

    @Test
    void aValidBodyIsTheAct() {
        assertThat(controller.parse(JSON.readTree("{\"act\": \"memory-feed\", \"strategy\": \"drop\", \"capacity\": 20000}")))
                .isEqualTo(new ActState(Act.MEMORY_FEED, FeedStrategy.DROP, 20000));
        assertThat(controller.parse(JSON.readTree("{\"act\": \"log\"}")))
                .isEqualTo(new ActState(Act.LOG, FeedStrategy.UNBOUNDED, ActState.DEFAULT_CAPACITY));
    }

    @Test
    void thePatternsNameEveryActAndStrategy() {
        assertThat(ActRequest.ACTS.split("\\|")).containsExactlyInAnyOrder(Arrays.stream(Act.values()).map(Act::id).toArray(String[]::new));
        assertThat(ActRequest.STRATEGIES.split("\\|"))
                .containsExactlyInAnyOrder(Arrays.stream(FeedStrategy.values()).map(FeedStrategy::id).toArray(String[]::new));
    }
}
