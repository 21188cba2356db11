package dev.lunchrush.events;

/** Where a reader takes the orders from in an act ({@link Act#kitchenReads()}, {@link Act#analyticsReads()}). */
public enum OrderSource {

    /** A RabbitMQ queue. */
    QUEUE,

    /** The order service's in-memory feed ({@code GET /feed}). */
    FEED,

    /** The Kafka log. */
    LOG
}
