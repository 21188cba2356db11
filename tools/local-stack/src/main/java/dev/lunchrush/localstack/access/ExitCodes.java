package dev.lunchrush.localstack.access;

/**
 * The exit codes of {@code ./demo}, in one place: the commands return them, {@link DemoException} carries them, and
 * the README lists them.
 */
public final class ExitCodes {

    /** The command did what it was asked. */
    public static final int DONE = 0;

    /** The command ran and failed: a service down, a request refused, a fault scenario that did not pass. */
    public static final int FAILED = 1;

    /** Bad input, nothing sent: picocli's usage errors and {@link DemoException#badInput}. */
    public static final int BAD_INPUT = 2;

    /** {@code ./demo status}: something is not up. */
    public static final int NOT_ALL_UP = 3;

    private ExitCodes() {
    }
}
