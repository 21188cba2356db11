package dev.lunchrush.orderservice.feed;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.orderservice.problems.FieldProblem;
import dev.lunchrush.orderservice.problems.ProblemException;
import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;

/**
 * {@code GET /feed}: the analytics job pulls, so the order service never hands out more than the job
 * asked for. A pull that finds nothing waits for the first event without holding a thread. Events already encoded are written as they are, no second serialization. Outside act 3
 * nothing enters the feed, so the answer is an empty array once what was left has been taken.
 */
@RestController
class FeedController {

    private final OrderFeed feed;

    FeedController(OrderFeed feed) {
        this.feed = feed;
    }

    @Operation(summary = "Act 3: the analytics job takes up to max events from the in-memory feed",
            description = "An empty feed holds the pull open up to waitMillis for the first event. Events taken are gone "
                    + "from the feed. Outside act 3 the answer is [] once what was left has been taken. Takes the analytics "
                    + "job's credential: HTTP Basic as admin with the stack's admin password (FeedSecurity).",
            security = @SecurityRequirement(name = ApiDocumentation.ADMIN),
            responses = {
                @ApiResponse(responseCode = "200", description = "The events, oldest first (order events as in GET /orders/{orderId})",
                        content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
                                array = @ArraySchema(schema = @Schema(implementation = OrderEvent.class)))),
                @ApiResponse(responseCode = "400", description = "max not a positive whole number, or waitMillis negative", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "401", description = "No credentials, or not the analytics job's: nothing is taken",
                        headers = @Header(name = "WWW-Authenticate", description = "Basic realm=\"Realm\"", schema = @Schema(type = "string")),
                        content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @GetMapping(path = "/feed", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<byte[]>> take(
            @Parameter(description = "the most events to take (at most lunchrush.feed.max-batch)", example = "500")
            @RequestParam(defaultValue = "500") String max,
            @Parameter(description = "how long an empty feed may hold the pull open (at most lunchrush.feed.max-wait)", example = "0")
            @RequestParam(defaultValue = "1000") String waitMillis) {
        int batch = positive("max", max, Integer.MAX_VALUE);
        long wait = positive("waitMillis", waitMillis, Long.MAX_VALUE);
        CompletableFuture<List<byte[]>> events = feed.take(batch, Duration.ofMillis(wait));
        // a closed connection does not cancel the future (events handed to it would be lost): it leaves the queue
        return Mono.fromFuture(events, true).doOnCancel(() -> feed.abandon(events)).map(FeedController::answer);
    }

    private static ResponseEntity<byte[]> answer(List<byte[]> events) {
        int size = 2 + events.size();
        for (byte[] event : events) {
            size += event.length;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream(size);
        body.write('[');
        for (int i = 0; i < events.size(); i++) {
            if (i > 0) {
                body.write(',');
            }
            body.writeBytes(events.get(i));
        }
        body.write(']');
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body.toByteArray());
    }

    private static long positive(String name, String value, long limit) {
        try {
            long parsed = Long.parseLong(value.trim());
            if (parsed < 0 || parsed > limit || (name.equals("max") && parsed == 0)) {
                throw new NumberFormatException();
            }
            return parsed;
        }
        catch (NumberFormatException ex) {
            throw ProblemException.invalid("Invalid feed request", List.of(new FieldProblem(name,
                    "must be a " + (name.equals("max") ? "positive" : "non-negative") + " whole number, was '" + value + "'")));
        }
    }

    private static int positive(String name, String value, int limit) {
        return (int) positive(name, value, (long) limit);
    }
}
