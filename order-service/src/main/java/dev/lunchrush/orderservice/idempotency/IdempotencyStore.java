package dev.lunchrush.orderservice.idempotency;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
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

import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import dev.lunchrush.orderservice.problems.FieldProblem;
import dev.lunchrush.orderservice.problems.ProblemException;

/**
 * Idempotency-Key: the first successful answer to a key is stored (key → request hash, status,
 * Location, body) in the embedded H2 database, so that a retry gets it again instead of a second
 * order, also after a restart. Errors (503, 429) are not stored: a retry of those must be tried
 * again, that is what the client retries for. Concurrent requests with the same key are lined up
 * in memory (one process writes): the second waits for the first and gets its answer.
 */
@Component
public class IdempotencyStore {

    private static final Logger log = LoggerFactory.getLogger(IdempotencyStore.class);

    private static final int MAX_KEY_LENGTH = 200;
    private static final Duration WAIT_FOR_FIRST = Duration.ofSeconds(30);
    private static final Duration RETENTION = Duration.ofDays(1);

    private final JdbcTemplate jdbc;
    private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();
    private final Counter replays;

    IdempotencyStore(JdbcTemplate jdbc, MeterRegistry registry) {
        this.jdbc = jdbc;
        this.replays = Counter.builder("orders.idempotent.replays")
                .description("requests answered with the stored answer of an earlier request with the same Idempotency-Key")
                .register(registry);
        jdbc.execute("""
                CREATE TABLE IF NOT EXISTS idempotency_keys (
                  idempotency_key VARCHAR(200) PRIMARY KEY,
                  request_hash CHAR(64) NOT NULL,
                  status INT NOT NULL,
                  location VARCHAR(300),
                  body VARCHAR(8000) NOT NULL,
                  created_at TIMESTAMP WITH TIME ZONE NOT NULL)""");
    }

    /**
     * The stored answer for this key, or the answer of {@code action}, stored when it succeeded.
     *
     * @throws ProblemException 422 when the key was used for a different request, 400 for a bad key
     */
    public StoredResponse execute(String key, byte[] canonicalRequest, Supplier<StoredResponse> action) {
        checkKey(key);
        String hash = sha256(canonicalRequest);
        InFlight mine = new InFlight(hash, new CompletableFuture<>());
        InFlight running = inFlight.putIfAbsent(key, mine);
        if (running != null) {
            return awaitFirst(key, hash, running);
        }
        try {
            Optional<Stored> stored = find(key);
            if (stored.isPresent()) {
                requireSameRequest(key, hash, stored.get().hash());
                replays.increment();
                mine.answer().complete(stored.get().response());
                return stored.get().response().asReplay();
            }
            StoredResponse response = action.get();
            if (response.status() >= 200 && response.status() < 300) {
                save(key, hash, response);
            }
            mine.answer().complete(response);
            return response;
        }
        catch (RuntimeException ex) {
            mine.answer().completeExceptionally(ex);
            throw ex;
        }
        finally {
            // the answer is in the database before the key is released: a later request finds one or the other
            inFlight.remove(key, mine);
        }
    }

    private StoredResponse awaitFirst(String key, String hash, InFlight running) {
        requireSameRequest(key, hash, running.hash());
        try {
            StoredResponse first = running.answer().get(WAIT_FOR_FIRST.toMillis(), TimeUnit.MILLISECONDS);
            replays.increment();
            return first.asReplay();
        }
        catch (ExecutionException ex) {
            if (ex.getCause() instanceof ProblemException problem) {
                throw problem;
            }
            throw ProblemException.unavailable("the first request with this Idempotency-Key failed: " + ex.getCause());
        }
        catch (TimeoutException ex) {
            throw ProblemException.unavailable("the first request with this Idempotency-Key is still running");
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw ProblemException.unavailable("interrupted");
        }
    }

    private Optional<Stored> find(String key) {
        List<Stored> rows = jdbc.query(
                "SELECT request_hash, status, location, body FROM idempotency_keys WHERE idempotency_key = ?",
                (rs, row) -> new Stored(rs.getString(1),
                        new StoredResponse(rs.getInt(2), rs.getString(3), rs.getString(4), false)),
                key);
        return rows.stream().findFirst();
    }

    private void save(String key, String hash, StoredResponse response) {
        try {
            jdbc.update("INSERT INTO idempotency_keys (idempotency_key, request_hash, status, location, body, created_at) "
                    + "VALUES (?, ?, ?, ?, ?, ?)", key, hash, response.status(), response.location(), response.body(),
                    Timestamp.from(Instant.now()));
        }
        catch (DataAccessException ex) {
            // the order is accepted and answered; only its replay is lost, which the log says
            log.error("could not store the answer for Idempotency-Key {}: a retry would place the order again", key, ex);
        }
    }

    @Scheduled(fixedDelayString = "PT1H", initialDelayString = "PT1M")
    void purge() {
        int removed = jdbc.update("DELETE FROM idempotency_keys WHERE created_at < ?",
                Timestamp.from(Instant.now().minus(RETENTION)));
        if (removed > 0) {
            log.info("forgot {} idempotency keys older than {}", removed, RETENTION);
        }
    }

    private static void requireSameRequest(String key, String hash, String storedHash) {
        if (!hash.equals(storedHash)) {
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

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private record InFlight(String hash, CompletableFuture<StoredResponse> answer) {
    }

    private record Stored(String hash, StoredResponse response) {
    }
}
