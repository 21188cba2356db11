package dev.lunchrush.loadgenerator;

/**
 * A failure the user should read as a plain sentence (no stack trace): a service that does not answer,
 * a request the service refused, input that is wrong in a way picocli cannot see.
 */
public class DemoException extends RuntimeException {

    private final int exitCode;

    public DemoException(String message) {
        this(message, Demo.EXIT_FAILED);
    }

    public DemoException(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    /** Input that is wrong: exit code 2, like picocli's own usage errors. */
    public static DemoException badInput(String message) {
        return new DemoException(message, Demo.EXIT_BAD_INPUT);
    }

    public int exitCode() {
        return exitCode;
    }
}
