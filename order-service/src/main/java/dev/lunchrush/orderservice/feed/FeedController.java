package dev.lunchrush.orderservice.feed;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.orderservice.problems.FieldProblem;
import dev.lunchrush.orderservice.problems.ProblemException;

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

    @GetMapping(path = "/feed", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<byte[]>> take(@RequestParam(defaultValue = "500") String max,
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
