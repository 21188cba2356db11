package dev.lunchrush.orderservice.problems;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.support.problems.ProblemType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The order service's two 503s that a client must not confuse, as {@link ProblemHandler} answers them: an order
 * whose broker has not said whether it wrote it ({@code outcome-unknown}), and a request whose Idempotency-Key's first
 * request is still under way ({@code still-running}). Same status; a client tells them apart by the {@code type}.
 */
class ProblemTypesTests {

    private final WebTestClient client = WebTestClient.bindToController(new Refusals())
            .controllerAdvice(new ProblemHandler()).build();

    @Test
    void anUnknownOutcomeAndAFirstRequestStillRunningAreTwoTypesOf503() {
        WebTestClient.BodyContentSpec unknown = refused("/unknown");
        WebTestClient.BodyContentSpec running = refused("/running");

        unknown.jsonPath("$.type").isEqualTo(ProblemType.OUTCOME_UNKNOWN.uri().toString())
                .jsonPath("$.title").isEqualTo("Outcome unknown");
        running.jsonPath("$.type").isEqualTo(ProblemType.STILL_RUNNING.uri().toString())
                .jsonPath("$.title").isEqualTo("Order not accepted");
        assertThat(ProblemType.OUTCOME_UNKNOWN.uri()).isNotEqualTo(ProblemType.STILL_RUNNING.uri());
    }

    @Test
    void nothingWrittenIsAThird503Type() {
        refused("/not-accepted").jsonPath("$.type").isEqualTo(ProblemType.NOT_ACCEPTED.uri().toString())
                .jsonPath("$.title").isEqualTo("Order not accepted");
    }

    /** Spring's own problems get the type of their status: a path nothing maps is {@code not-found}. */
    @Test
    void aProblemOfSpringsGetsTheTypeOfItsStatus() {
        client.get().uri("/nowhere").exchange()
                .expectStatus().isNotFound()
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody().jsonPath("$.type").isEqualTo(ProblemType.NOT_FOUND.uri().toString());
    }

    private WebTestClient.BodyContentSpec refused(String path) {
        return client.get().uri(path).exchange()
                .expectStatus().isEqualTo(503)
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody().jsonPath("$.status").isEqualTo(503).jsonPath("$.instance").isEqualTo(path);
    }

    @RestController
    static class Refusals {

        @GetMapping("/unknown")
        Mono<String> unknown() {
            return Mono.error(new OutcomeUnknownException("RabbitMQ did not confirm the order in time", null));
        }

        @GetMapping("/running")
        Mono<String> running() {
            return Mono.error(ProblemDocuments.stillRunning());
        }

        @GetMapping("/not-accepted")
        Mono<String> notAccepted() {
            return Mono.error(ProblemException.unavailable("RabbitMQ is not reachable"));
        }
    }
}
