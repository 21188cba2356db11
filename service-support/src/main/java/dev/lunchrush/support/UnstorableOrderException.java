package dev.lunchrush.support;

/**
 * An order that decoded but that a reader cannot store (poison, as a record the codec refuses is): thrown by the
 * reader's store for the order at {@link #index()} of the list it was given, once the orders before it are stored.
 * The readers dead-letter it at once with this message as its reason, count it and go on: never retried. A store
 * that is down is not this: its failure is retried, and nothing is dead-lettered for it.
 */
public class UnstorableOrderException extends RuntimeException {

    private final int index;

    public UnstorableOrderException(int index, String reason, Throwable cause) {
        super(reason, cause);
        this.index = index;
    }

    /** Where the order is in the list the store was given. */
    public int index() {
        return index;
    }
}
