package dev.lunchrush.orderservice.feed;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.swagger.v3.oas.annotations.Operation;
import org.jspecify.annotations.Nullable;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SynchronousSink;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.support.problems.FieldProblem;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;
import dev.lunchrush.support.problems.ProblemType;

/**
 * {@code GET /feed}: the analytics job pulls, so the order service never hands out more than the job
 * asked for. A pull that finds nothing waits for the first event without holding a thread. Outside act 3
 * nothing enters the feed, so the answer is an empty array once what was left has been taken.
 *
 * <p>The answer is streamed in chunks of at most {@value #CHUNK_EVENTS} events, each taken from the feed only
 * when the connection asks for the next one and written into the server's own (pooled, off-heap) buffers: what a
 * pull holds besides the feed is bounded (at most 128 chunks, ~1 MB, while its reader stalls), whatever its
 * {@code max}: a whole batch taken at once and built into one array would hold the events, the array and its
 * copy together, large enough to be made directly in the old generation, which is the feed's budget. Events
 * already encoded are written as they are, no second serialization.
 */
@RestController
class FeedController {

    /**
     * Events per chunk of an answer. Reactor Netty asks a streamed body for up to 128 chunks ahead and keeps them
     * until the connection takes them: at 8 events (~8 KB) a chunk, a pull holds at most ~1 MB outside the feed
     * even when its reader stalls, and a pull of the job's usual 150-500 events is 19-63 buffers.
     */
    static final int CHUNK_EVENTS = 8;

    private final OrderFeed feed;

    FeedController(OrderFeed feed) {
        this.feed = feed;
    }

    @Operation(summary = "Act 3: the analytics job takes up to max events from the in-memory feed",
            description = "An empty feed holds the pull open up to waitMillis for the first event. Events taken are gone "
                    + "from the feed. Outside act 3 the answer is [] once what was left has been taken. Takes the analytics "
                    + "job's credential: HTTP Basic as admin with the stack's admin password (FeedSecurity). Any other method, HEAD "
                    + "included, is answered 405 and takes nothing.",
            security = @SecurityRequirement(name = ApiDocumentation.ADMIN),
            responses = {
                @ApiResponse(responseCode = "200", description = "The events, oldest first (order events as in GET /orders/{orderId})",
                        content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
                                array = @ArraySchema(schema = @Schema(implementation = OrderEvent.class)))),
                @ApiResponse(responseCode = "400", description = "max not a positive whole number, or waitMillis negative. Type " + ProblemType.BASE + "invalid-input", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "401", description = "No credentials, or not the analytics job's: nothing is taken. Type " + ProblemType.BASE + "unauthorized",
                        headers = @Header(name = "WWW-Authenticate", description = "Basic realm=\"Realm\"", schema = @Schema(type = "string")),
                        content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @GetMapping(path = "/feed", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<Flux<DataBuffer>>> take(
            @Parameter(description = "the most events to take (at most lunchrush.feed.max-batch)", example = "500")
            @RequestParam(defaultValue = "500") String max,
            @Parameter(description = "how long an empty feed may hold the pull open (at most lunchrush.feed.max-wait)", example = "0")
            @RequestParam(defaultValue = "1000") String waitMillis,
            @Parameter(hidden = true) ServerHttpResponse response) {
        int batch = feed.limit(positive("max", max, Integer.MAX_VALUE));
        long wait = positive("waitMillis", waitMillis, Long.MAX_VALUE);
        CompletableFuture<List<byte[]>> first = feed.take(Math.min(batch, CHUNK_EVENTS), Duration.ofMillis(wait));
        DataBufferFactory buffers = response.bufferFactory();
        // a closed connection does not cancel the future (events handed to it would be lost): it leaves the queue
        return Mono.fromFuture(first, true).doOnCancel(() -> feed.abandon(first))
                .map(events -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON)
                        .body(chunks(events, batch, buffers)));
    }

    /**
     * The JSON array of the first chunk and then of the feed's next events, up to {@code batch} in all, a chunk
     * taken each time the connection asks for one; it ends early when the feed has no more.
     */
    private Flux<DataBuffer> chunks(List<byte[]> first, int batch, DataBufferFactory buffers) {
        return Flux.generate(() -> new Cursor(first), (Cursor cursor, SynchronousSink<DataBuffer> sink) -> {
            List<byte[]> events = cursor.next(batch, feed);
            boolean last = events.isEmpty() || cursor.sent + events.size() >= batch || events.size() < CHUNK_EVENTS;
            int size = 2 + events.size();
            for (byte[] event : events) {
                size += event.length;
            }
            DataBuffer chunk = buffers.allocateBuffer(size);
            if (!cursor.opened) {
                chunk.write((byte) '[');
                cursor.opened = true;
            }
            for (byte[] event : events) {
                if (cursor.sent++ > 0) {
                    chunk.write((byte) ',');
                }
                chunk.write(event);
            }
            if (last) {
                chunk.write((byte) ']');
            }
            sink.next(chunk);
            if (last) {
                sink.complete();
            }
            return cursor;
        });
    }

    /** Where an answer is: the first chunk until it is written, events written so far, whether the array is open. */
    private static final class Cursor {

        private @Nullable List<byte[]> first;
        private int sent;
        private boolean opened;

        Cursor(List<byte[]> first) {
            this.first = first;
        }

        /** The first chunk (taken by the pull's wait), then the feed's next events up to the batch. */
        List<byte[]> next(int batch, OrderFeed feed) {
            List<byte[]> chunk = first;
            if (chunk != null) {
                first = null;
                return chunk;
            }
            return sent < batch ? feed.takeNow(Math.min(CHUNK_EVENTS, batch - sent)) : List.of();
        }
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
