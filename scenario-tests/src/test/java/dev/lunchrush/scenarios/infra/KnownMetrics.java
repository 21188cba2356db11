package dev.lunchrush.scenarios.infra;

import java.util.Set;

/**
 * The metric names the dashboards and alert rules may use, by who exports them. The services' names
 * are the contract (DESIGN.md's table plus what the services' READMEs add); the brokers' come from
 * their exporters, which run in docker compose.
 */
final class KnownMetrics {

    /** Exported by the Lunch Rush services (Micrometer, /actuator/prometheus). */
    static final Set<String> SERVICES = Set.of(
            "orders_placed_total",
            "orders_received_total",
            "order_feed_buffered_events",
            "order_feed_buffered_bytes",
            "order_feed_accepted_total",
            "order_feed_delivered_total",
            "order_feed_dropped_total",
            "order_feed_rejected_total",
            "backlog_unread_events",
            "backlog_oldest_unread_age_seconds",
            "backlog_source_up",
            "order_to_screen_latency_seconds_bucket",
            "order_to_screen_latency_seconds_count",
            "order_to_screen_latency_seconds_sum",
            "orders_refused_total",
            "order_intake_seconds_bucket",
            "order_intake_seconds_count",
            "order_intake_seconds_sum",
            "orders_dead_lettered_total",
            "replay_events_read",
            "replay_events_expected",
            "replay_rate_events_per_second",
            "replay_running",
            "replay_completed_total",
            "jvm_memory_used_bytes",
            "jvm_memory_max_bytes",
            "jvm_gc_live_data_size_bytes",
            "jvm_gc_max_data_size_bytes",
            "lunchrush_act_info",
            "orders_missing",
            "orders_late_total",
            "analytics_processed_per_second",
            "analytics_capacity_events_per_second",
            "notifications_sent_total");

    /** The metrics of DESIGN.md's table: every one of them must be on a dashboard or in a rule. */
    static final Set<String> DESIGN_CONTRACT = Set.of(
            "orders_placed_total",
            "orders_received_total",
            "order_feed_buffered_events",
            "order_feed_dropped_total",
            "order_feed_rejected_total",
            "backlog_unread_events",
            "backlog_oldest_unread_age_seconds");

    /** RabbitMQ's own exporter (rabbitmq_prometheus, /metrics/per-object on port 15692). */
    static final Set<String> RABBITMQ_EXPORTER = Set.of(
            "rabbitmq_queue_messages_ready",
            "rabbitmq_queue_messages_unacked",
            "rabbitmq_queue_consumers",
            "rabbitmq_global_messages_received_total",
            "rabbitmq_global_messages_delivered_total",
            "rabbitmq_process_resident_memory_bytes",
            "rabbitmq_resident_memory_limit_bytes");

    /**
     * danielqsj/kafka-exporter: runs in docker compose only (the local launcher and the tests have no
     * such process), so these are taken on the exporter's documentation, not scraped.
     */
    static final Set<String> KAFKA_EXPORTER = Set.of(
            "kafka_brokers",
            "kafka_consumergroup_lag",
            "kafka_topic_partition_current_offset",
            "kafka_topic_partition_under_replicated_partition");

    /** Made by Prometheus itself, not scraped from anyone. */
    static final Set<String> PROMETHEUS = Set.of("up", "ALERTS", "ALERTS_FOR_STATE");

    private KnownMetrics() {
    }
}
