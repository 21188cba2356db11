package dev.lunchrush.loadgenerator;

/**
 * A failure the user should read as a plain sentence (no stack trace): a service that does not answer,
 * a request the service refused, input that is wrong in a way picocli cannot see.
 */
public class DemoException extends RuntimeException {

    private final int exitCode;
    private final boolean retryable;

    public DemoException(String message) {
        this(message, Demo.EXIT_FAILED);
    }

    public DemoException(String message, int exitCode) {
        this(message, exitCode, false);
    }

    private DemoException(String message, int exitCode, boolean retryable) {
        super(message);
        this.exitCode = exitCode;
        this.retryable = retryable;
    }

    /** Input that is wrong: exit code 2, like picocli's own usage errors. */
    public static DemoException badInput(String message) {
        return new DemoException(message, Demo.EXIT_BAD_INPUT);
    }

    /** A service busy (429), unavailable (5xx), not answering or timing out: the same request may succeed later. */
    public static DemoException temporary(String message) {
        return new DemoException(message, Demo.EXIT_FAILED, true);
    }

    public int exitCode() {
        return exitCode;
    }

    /** Whether sending the same request again may succeed; refused input and refused passwords will not. */
    public boolean retryable() {
        return retryable;
    }
}
