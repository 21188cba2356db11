package dev.lunchrush.orderservice.idempotency;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.stereotype.Component;

import dev.lunchrush.orderservice.problems.OutcomeUnknownException;
import dev.lunchrush.orderservice.problems.ProblemDocuments;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.orderservice.storage.LocalStore;

/**
 * Idempotency-Key: the first successful answer to a key is stored (key → request hash, status,
 * Location, body) in the service's {@link LocalStore} for {@code lunchrush.store.idempotency-retention},
 * so that a retry gets it again instead of a second order, also after a restart. Errors that say nothing
 * was written (503, 429) are not stored: a retry of those must be tried again, that is what the client
 * retries for. Concurrent requests with the same key are lined up in memory (one process writes): the
 * second waits for the first and gets its answer.
 *
 * <p>A write whose outcome is unknown at its deadline ({@link OutcomeUnknownException}: a RabbitMQ confirm or a
 * Kafka ack still to come) is answered 503, and its key stays lined up until the broker's real answer
 * arrives: a retry meanwhile waits for it (a few seconds, then 503 again), and gets the stored answer once
 * the order turns out written, so that it never places a second one. An import's transaction whose commit
 * went unanswered leaves a note in the store before its commit ({@link Attempt#leaveNote}): the next attempt
 * under the key finds it and learns the outcome from the log. An order left a note when its outcome went unknown:
 * the broker's late answer replaces it (the answer stored when written, the note dropped when not), and an attempt
 * that finds it (after a restart, the late answer lost) is told of it to learn the outcome.
 *
 * <p>While the service stops, a late failure does not drop a note: the producers and connections closing under a
 * write fail it whatever the broker did with it, so the note stays for the retry after the restart.
 */
@Component
public class IdempotencyStore implements ApplicationListener<ContextClosedEvent> {

    private static final Logger log = LoggerFactory.getLogger(IdempotencyStore.class);

    private static final Duration WAIT_FOR_FIRST = Duration.ofSeconds(30);
    /**
     * How long a request waits for the broker's answer to an earlier request with its key that was answered
     * "outcome unknown": about an order's own deadline, so that the client hears within its timeout.
     */
    private static final Duration WAIT_FOR_UNKNOWN = Duration.ofSeconds(5);

    private final LocalStore store;
    private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();
    private final Counter replays;
    private volatile boolean stopping;

    IdempotencyStore(LocalStore store, MeterRegistry registry) {
        this.store = store;
        this.replays = Counter.builder("orders.idempotent.replays")
                .description("requests answered with the stored answer of an earlier request with the same Idempotency-Key")
                .register(registry);
    }

    /**
     * The stored answer for this key, or the answer of {@code action}, stored when it succeeded; the action is
     * told of the note an earlier attempt left when its outcome went unknown ({@link Attempt}). Nothing
     * waits on a thread: a request with the key of one under way gets that one's answer when it comes. The
     * attempt ends on its own whatever the caller does with the returned future (cancelling it included): its
     * answer is stored and the key released once the action's future completes.
     *
     * @throws ProblemException 422 when the key was used for a different request, 400 for a bad key
     */
    public CompletableFuture<StoredResponse> execute(String key, byte[] canonicalRequest,
            Function<Attempt, CompletableFuture<StoredResponse>> action) {
        return execute(LocalStore.Family.IDEMPOTENCY, key, canonicalRequest, action);
    }

    /**
     * The same for an admin import's batch, whose key is kept as long as the log keeps its orders
     * ({@code lunchrush.store.import-retention}), apart from the orders' keys. The action is told what an
     * earlier attempt whose outcome was unknown left, and may leave a note for the next one.
     */
    public CompletableFuture<StoredResponse> executeImport(String key, byte[] canonicalRequest,
            Function<Attempt, CompletableFuture<StoredResponse>> action) {
        return execute(LocalStore.Family.IMPORTS, key, canonicalRequest, action);
    }

    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        stopping = true;
    }

    /** What an attempt under a key is told of the earlier ones, and may leave for the later ones. */
    public interface Attempt {

        /** The note an earlier attempt left about a write whose outcome went unknown, or null. */
        byte @Nullable [] earlierNote();

        /**
         * Stores {@code note} under the key (replacing an earlier one): before a write whose outcome may go
         * unknown (an import's commit), or once it went unknown (an order); fails with
         * {@link LocalStore.StoreException} when it could not.
         */
        void leaveNote(byte[] note);
    }

    private CompletableFuture<StoredResponse> execute(LocalStore.Family family, String key, byte[] canonicalRequest,
            Function<Attempt, CompletableFuture<StoredResponse>> action) {
        KeyedRequests.checkKey(key);
        byte[] hash = KeyedRequests.sha256(canonicalRequest);
        InFlight mine = new InFlight(hash, new CompletableFuture<>());
        String running = family.name() + " " + key;
        InFlight first = inFlight.putIfAbsent(running, mine);
        if (first != null) {
            return awaitFirst(key, hash, first);
        }
        CompletableFuture<StoredResponse> answer;
        try {
            Optional<Stored> stored = find(family, key);
            if (stored.isPresent()) {
                KeyedRequests.requireSameRequest(key, hash, stored.get().hash());
            }
            if (stored.isPresent() && stored.get().note() == null) {
                replays.increment();
                answer = CompletableFuture.completedFuture(stored.get().response().asReplay());
            }
            else {
                Attempt attempt = new StoreAttempt(family, key, hash, stored.map(Stored::note).orElse(null));
                answer = action.apply(attempt).thenApply(response -> {
                    if (response.status() >= 200 && response.status() < 300) {
                        save(family, key, hash, response);
                    }
                    return response;
                });
            }
        }
        catch (RuntimeException ex) {
            answer = CompletableFuture.failedFuture(ex);
        }
        CompletableFuture<StoredResponse> settled = answer.whenComplete((response, failure) -> {
            Throwable cause = failure == null ? null : ProblemException.unwrap(failure);
            if (cause instanceof OutcomeUnknownException unknown && unknown.outcome() != null) {
                // this request is answered 503 now; the key waits for the broker's real answer
                mine.outcomeUnknown = true;
                unknown.outcome().whenComplete((late, lateFailure) -> settleLate(family, key, running, mine, late,
                        lateFailure));
                return;
            }
            // the answer is in the store before the key is released: a later request finds one or the other
            inFlight.remove(running, mine);
            if (cause == null) {
                mine.answer().complete(response);
            }
            else {
                mine.answer().completeExceptionally(cause);
            }
        });
        // the caller's copy: a caller that cancels it (its client went away) must not cancel the attempt's own
        // settlement, which stores its answer and releases the key: a cancelled whenComplete never runs its action
        return settled.copy();
    }

    /** The broker's real answer to a write that was answered "outcome unknown": stored when written, then the key released. */
    private void settleLate(LocalStore.Family family, String key, String running, InFlight mine, @Nullable Object late,
            @Nullable Throwable failure) {
        try {
            if (failure == null && late instanceof StoredResponse response && response.status() >= 200
                    && response.status() < 300) {
                save(family, key, mine.hash(), response);
                log.info("Idempotency-Key {}: written after all, its answer ({}) stored for the retry", key,
                        response.status());
                inFlight.remove(running, mine);
                mine.answer().complete(response);
                return;
            }
            String reason = failure == null ? "unexpected answer " + late : ProblemException.unwrap(failure).getMessage();
            if (stopping) {
                log.info("Idempotency-Key {}: failed while the service stops ({}): its note stays for the retry", key,
                        reason);
            }
            else {
                log.info("Idempotency-Key {}: not written after all ({})", key, reason);
                forgetNote(family, key);
            }
            inFlight.remove(running, mine);
            mine.answer().completeExceptionally(ProblemException.unavailable(
                    "the first request with this Idempotency-Key was not written (" + reason + "): send it again"));
        }
        catch (RuntimeException ex) {
            inFlight.remove(running, mine);
            mine.answer().completeExceptionally(ex);
        }
    }

    private CompletableFuture<StoredResponse> awaitFirst(String key, byte[] hash, InFlight running) {
        KeyedRequests.requireSameRequest(key, hash, running.hash());
        boolean unknown = running.outcomeUnknown;
        // a copy: a waiter that gives up must not end the wait of the others
        return running.answer().copy().orTimeout((unknown ? WAIT_FOR_UNKNOWN : WAIT_FOR_FIRST).toMillis(),
                TimeUnit.MILLISECONDS).handle((first, failure) -> {
            if (failure == null) {
                replays.increment();
                return first.asReplay();
            }
            Throwable cause = ProblemException.unwrap(failure);
            if (cause instanceof ProblemException problem) {
                throw problem;
            }
            if (cause instanceof TimeoutException && (unknown || running.outcomeUnknown)) {
                throw new OutcomeUnknownException("the first request with this Idempotency-Key was written to a broker "
                        + "that has not answered yet: its outcome is still unknown; send it again later with the same "
                        + "Idempotency-Key", null);
            }
            if (cause instanceof TimeoutException) {
                throw ProblemDocuments.stillRunning();
            }
            throw ProblemException.unavailable("the first request with this Idempotency-Key failed: " + cause);
        });
    }

    private Optional<Stored> find(LocalStore.Family family, String key) {
        byte[] value = store.get(family, key.getBytes(StandardCharsets.US_ASCII));
        return value == null ? Optional.empty() : Optional.of(Stored.decode(value));
    }

    /** The note of a write that turned out not done: the key is free again, also after a restart. */
    private void forgetNote(LocalStore.Family family, String key) {
        try {
            store.delete(family, key.getBytes(StandardCharsets.US_ASCII));
        }
        catch (LocalStore.StoreException ex) {
            log.error("could not drop the note of Idempotency-Key {}: a retry after a restart finds its outcome unknown",
                    key, ex);
        }
    }

    private void save(LocalStore.Family family, String key, byte[] hash, StoredResponse response) {
        try {
            store.put(family, key.getBytes(StandardCharsets.US_ASCII),
                    new Stored(hash, response).encode());
        }
        catch (LocalStore.StoreException ex) {
            // the order is accepted and answered; only its replay is lost, which the log says
            log.error("could not store the answer for Idempotency-Key {}: a retry would place the order again", key, ex);
        }
    }

    /** A request under way with its key, and its answer to whoever comes with the same key meanwhile. */
    private static final class InFlight {

        private final byte[] hash;
        private final CompletableFuture<StoredResponse> answer;
        /** Answered "outcome unknown": the key waits for the broker's real answer. */
        volatile boolean outcomeUnknown;

        InFlight(byte[] hash, CompletableFuture<StoredResponse> answer) {
            this.hash = hash;
            this.answer = answer;
        }

        byte[] hash() {
            return hash;
        }

        CompletableFuture<StoredResponse> answer() {
            return answer;
        }
    }

    /** An attempt's view of the store: the earlier attempt's note, and a place for its own. */
    private final class StoreAttempt implements Attempt {

        private final LocalStore.Family family;
        private final String key;
        private final byte[] hash;
        private final byte @Nullable [] earlier;

        StoreAttempt(LocalStore.Family family, String key, byte[] hash, byte @Nullable [] earlier) {
            this.family = family;
            this.key = key;
            this.hash = hash;
            this.earlier = earlier;
        }

        @Override
        public byte @Nullable [] earlierNote() {
            return earlier;
        }

        @Override
        public void leaveNote(byte[] note) {
            store.put(family, key.getBytes(StandardCharsets.US_ASCII), Stored.note(hash, note).encode());
        }
    }

    /**
     * What is stored under a key: the request's hash, then status, Location (empty when none) and body. Status 0
     * is a note an attempt left before a write whose outcome went unknown (its bytes in the body, Base64), not an
     * answer.
     */
    private record Stored(byte[] hash, StoredResponse response) {

        private static final int NOTE = 0;

        static Stored note(byte[] hash, byte[] note) {
            return new Stored(hash, new StoredResponse(NOTE, null, Base64.getEncoder().encodeToString(note), false));
        }

        /** The note, or null when this is an answer. */
        byte @Nullable [] note() {
            return response.status() == NOTE ? Base64.getDecoder().decode(response.body()) : null;
        }

        byte[] encode() {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + response.body().length());
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.write(hash);
                out.writeShort(response.status());
                out.writeUTF(response.location() == null ? "" : response.location());
                out.writeUTF(response.body());
            }
            catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
            return bytes.toByteArray();
        }

        static Stored decode(byte[] value) {
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
                byte[] hash = in.readNBytes(32);
                int status = in.readUnsignedShort();
                String location = in.readUTF();
                String body = in.readUTF();
                return new Stored(hash, new StoredResponse(status, location.isEmpty() ? null : location, body, false));
            }
            catch (IOException ex) {
                throw new UncheckedIOException("a stored answer that cannot be read", ex);
            }
        }
    }
}
