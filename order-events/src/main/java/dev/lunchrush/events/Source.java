package dev.lunchrush.events;

/** Values of the {@code source} label of {@code orders_received_total}: where a reader got an order. */
public final class Source {

    public static final String SHARED_QUEUE = "shared-queue";
    public static final String OWN_QUEUE = "own-queue";
    public static final String FEED = "feed";
    public static final String KAFKA = "kafka";

    private Source() {
    }
}
