package dev.lunchrush.localstack.access;

/**
 * A failure the user should read as a plain sentence (no stack trace): a service that does not answer,
 * a request the service refused, input that is wrong in a way picocli cannot see.
 */
public class DemoException extends RuntimeException {

    private final int exitCode;
    private final boolean retryable;
    private final int status;

    public DemoException(String message) {
        this(message, ExitCodes.FAILED);
    }

    public DemoException(String message, int exitCode) {
        this(message, exitCode, false, 0);
    }

    private DemoException(String message, int exitCode, boolean retryable, int status) {
        super(message);
        this.exitCode = exitCode;
        this.retryable = retryable;
        this.status = status;
    }

    /** Input that is wrong: exit code 2, like picocli's own usage errors. */
    public static DemoException badInput(String message) {
        return new DemoException(message, ExitCodes.BAD_INPUT);
    }

    /** A service not answering or timing out: the same request may succeed later. */
    public static DemoException temporary(String message) {
        return new DemoException(message, ExitCodes.FAILED, true, 0);
    }

    /**
     * A service that answered with an error status: busy (429) and unavailable (5xx) may succeed later, the other
     * refusals will not.
     */
    public static DemoException answered(String message, int status) {
        return new DemoException(message, ExitCodes.FAILED, status == 429 || status / 100 == 5, status);
    }

    public int exitCode() {
        return exitCode;
    }

    /** Whether sending the same request again may succeed; refused input and refused passwords will not. */
    public boolean retryable() {
        return retryable;
    }

    /** The HTTP status the service answered with; 0 when it did not answer (or the failure is not a service's). */
    public int status() {
        return status;
    }
}
