package dev.lunchrush.orderservice.idempotency;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import dev.lunchrush.orderservice.problems.FieldProblem;
import dev.lunchrush.orderservice.problems.ProblemException;
import dev.lunchrush.orderservice.storage.LocalStore;

/**
 * Idempotency-Key: the first successful answer to a key is stored (key → request hash, status,
 * Location, body) in the service's {@link LocalStore} for {@code lunchrush.store.idempotency-retention},
 * so that a retry gets it again instead of a second order, also after a restart. Errors (503, 429)
 * are not stored: a retry of those must be tried again, that is what the client retries for.
 * Concurrent requests with the same key are lined up in memory (one process writes): the second
 * waits for the first and gets its answer.
 */
@Component
public class IdempotencyStore {

    private static final Logger log = LoggerFactory.getLogger(IdempotencyStore.class);

    private static final int MAX_KEY_LENGTH = 200;
    private static final Duration WAIT_FOR_FIRST = Duration.ofSeconds(30);

    private final LocalStore store;
    private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();
    private final Counter replays;

    IdempotencyStore(LocalStore store, MeterRegistry registry) {
        this.store = store;
        this.replays = Counter.builder("orders.idempotent.replays")
                .description("requests answered with the stored answer of an earlier request with the same Idempotency-Key")
                .register(registry);
    }

    /**
     * The stored answer for this key, or the answer of {@code action}, stored when it succeeded. Nothing
     * waits on a thread: a request with the key of one under way gets that one's answer when it comes.
     *
     * @throws ProblemException 422 when the key was used for a different request, 400 for a bad key
     */
    public CompletableFuture<StoredResponse> execute(String key, byte[] canonicalRequest,
            Supplier<CompletableFuture<StoredResponse>> action) {
        return execute(LocalStore.Family.IDEMPOTENCY, key, canonicalRequest, action);
    }

    /**
     * The same for an admin import's batch, whose key is kept as long as the log keeps its orders
     * ({@code lunchrush.store.import-retention}), apart from the orders' keys.
     */
    public CompletableFuture<StoredResponse> executeImport(String key, byte[] canonicalRequest,
            Supplier<CompletableFuture<StoredResponse>> action) {
        return execute(LocalStore.Family.IMPORTS, key, canonicalRequest, action);
    }

    private CompletableFuture<StoredResponse> execute(LocalStore.Family family, String key, byte[] canonicalRequest,
            Supplier<CompletableFuture<StoredResponse>> action) {
        checkKey(key);
        byte[] hash = sha256(canonicalRequest);
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
                requireSameRequest(key, hash, stored.get().hash());
                replays.increment();
                answer = CompletableFuture.completedFuture(stored.get().response().asReplay());
            }
            else {
                answer = action.get().thenApply(response -> {
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
        return answer.whenComplete((response, failure) -> {
            // the answer is in the store before the key is released: a later request finds one or the other
            inFlight.remove(running, mine);
            if (failure == null) {
                mine.answer().complete(response);
            }
            else {
                mine.answer().completeExceptionally(ProblemException.unwrap(failure));
            }
        });
    }

    private CompletableFuture<StoredResponse> awaitFirst(String key, byte[] hash, InFlight running) {
        requireSameRequest(key, hash, running.hash());
        return running.answer().orTimeout(WAIT_FOR_FIRST.toMillis(), TimeUnit.MILLISECONDS).handle((first, failure) -> {
            if (failure == null) {
                replays.increment();
                return first.asReplay();
            }
            Throwable cause = ProblemException.unwrap(failure);
            if (cause instanceof ProblemException problem) {
                throw problem;
            }
            if (cause instanceof TimeoutException) {
                throw ProblemException.unavailable("the first request with this Idempotency-Key is still running");
            }
            throw ProblemException.unavailable("the first request with this Idempotency-Key failed: " + cause);
        });
    }

    private Optional<Stored> find(LocalStore.Family family, String key) {
        byte[] value = store.get(family, key.getBytes(StandardCharsets.US_ASCII));
        return value == null ? Optional.empty() : Optional.of(Stored.decode(value));
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

    private static void requireSameRequest(String key, byte[] hash, byte[] storedHash) {
        if (!MessageDigest.isEqual(hash, storedHash)) {
            throw new ProblemException(HttpStatus.valueOf(422), "Idempotency-Key reused",
                    "the Idempotency-Key '" + key + "' was used before for a different request",
                    List.of(new FieldProblem("Idempotency-Key", "already used for a different request body")), Map.of());
        }
    }

    private static void checkKey(String key) {
        if (key.isBlank() || key.length() > MAX_KEY_LENGTH || !key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
            throw ProblemException.invalid("Invalid request", List.of(new FieldProblem("Idempotency-Key",
                    "must be 1 to " + MAX_KEY_LENGTH + " visible ASCII characters")));
        }
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private record InFlight(byte[] hash, CompletableFuture<StoredResponse> answer) {
    }

    /** A stored answer: the request's hash, then status, Location (empty when none) and body. */
    private record Stored(byte[] hash, StoredResponse response) {

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
