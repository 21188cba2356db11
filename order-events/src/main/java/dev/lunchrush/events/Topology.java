package dev.lunchrush.events;

/**
 * Names of the queues, exchanges, topics and consumer groups that more than one service uses.
 */
public final class Topology {

    /** Act 1: the durable RabbitMQ work queue that both readers compete on. */
    public static final String SHARED_QUEUE = "orders";

    /** Act 2: the fanout exchange the order service publishes to, one queue per reader behind it. */
    public static final String FANOUT_EXCHANGE = "orders.fanout";

    /** Act 2 and 3: the kitchen screen's own queue. */
    public static final String KITCHEN_QUEUE = "orders.kitchen-screen";

    /** Act 2: the analytics dashboard's own queue. */
    public static final String ANALYTICS_QUEUE = "orders.analytics-dashboard";

    /** Where RabbitMQ readers dead-letter messages they cannot read. */
    public static final String DEAD_LETTER_EXCHANGE = "orders.dlx";

    /** The queue behind {@link #DEAD_LETTER_EXCHANGE}. */
    public static final String DEAD_LETTER_QUEUE = "orders.dead-letter";

    /** Work that must be done once (send the SMS): a work queue with competing workers. */
    public static final String NOTIFICATION_QUEUE = "notifications.sms";

    /** Act 4: the log. */
    public static final String ORDERS_TOPIC = "orders";

    /** Records of {@link #ORDERS_TOPIC} that no reader could read. */
    public static final String ORDERS_DEAD_LETTER_TOPIC = "orders.DLT";

    public static final String KITCHEN_GROUP = "kitchen-screen";

    public static final String ANALYTICS_GROUP = "analytics-dashboard";

    /** Partitions of {@link #ORDERS_TOPIC}; orders are keyed by kitchen, so each kitchen keeps its order. */
    public static final int ORDERS_PARTITIONS = 3;

    /** How long the log keeps orders: long enough for the accountant's "last Thursday". */
    public static final long ORDERS_RETENTION_DAYS = 14;

    private Topology() {
    }
}
