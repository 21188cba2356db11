package dev.lunchrush.orderservice.idempotency;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;


import dev.lunchrush.support.problems.FieldProblem;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.support.problems.ProblemType;

/**
 * What an Idempotency-Key and its request must be: a key of visible ASCII within a bound, and the same request (by
 * its SHA-256) each time the key comes back; a key reused for another request is a 422.
 */
final class KeyedRequests {

    private static final int MAX_KEY_LENGTH = 200;

    /** The prototype each hash copies (never used itself, so never shared between threads). */
    private static final MessageDigest SHA_256 = sha256Digest();

    private KeyedRequests() {
    }

    static void requireSameRequest(String key, byte[] hash, byte[] storedHash) {
        if (!MessageDigest.isEqual(hash, storedHash)) {
            throw new ProblemException(ProblemType.IDEMPOTENCY_KEY_REUSED, "Idempotency-Key reused",
                    "the Idempotency-Key '" + key + "' was used before for a different request",
                    List.of(new FieldProblem("Idempotency-Key", "already used for a different request body")), Map.of());
        }
    }

    static void checkKey(String key) {
        if (key.isBlank() || key.length() > MAX_KEY_LENGTH || !key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
            throw ProblemException.invalid("Invalid request", List.of(new FieldProblem("Idempotency-Key",
                    "must be 1 to " + MAX_KEY_LENGTH + " visible ASCII characters")));
        }
    }

    /** SHA-256 of the bytes, from a copy of one digest: looking the algorithm up among the providers cost more. */
    static byte[] sha256(byte[] bytes) {
        try {
            return ((MessageDigest) SHA_256.clone()).digest(bytes);
        }
        catch (CloneNotSupportedException ex) {
            throw new IllegalStateException(ex);
        }
    }

    static MessageDigest sha256Digest() {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.clone();
            return digest;
        }
        catch (NoSuchAlgorithmException | CloneNotSupportedException ex) {
            throw new IllegalStateException("SHA-256 that can be copied is needed for Idempotency-Key", ex);
        }
    }
}
