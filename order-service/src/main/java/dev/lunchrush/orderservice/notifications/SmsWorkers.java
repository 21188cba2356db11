package dev.lunchrush.orderservice.notifications;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.amqp.AmqpRejectAndDontRequeueException;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.Topology;

/**
 * Two competing workers on {@code notifications.sms}: each task goes to one of them (work queue,
 * prefetch 1). "Done once" is made sure of by the notification log, an H2 table whose primary key is
 * the task id: a worker first claims the task there, and only the worker whose insert succeeded
 * sends; a redelivered task (a worker died before its ack, RabbitMQ restarted) finds its row, is
 * counted as a duplicate and acknowledged without sending. There is no SMS gateway here: sending is
 * a log line and a counter. With a real gateway the task id would go along as its idempotency key,
 * which closes the gap between the claim and the send.
 */
@Component
class SmsWorkers {

    private static final Logger log = LoggerFactory.getLogger(SmsWorkers.class);

    private static final String WORKER_ONE = "sms-worker-1";
    private static final String WORKER_TWO = "sms-worker-2";

    private final JdbcTemplate jdbc;
    private final JsonMapper json;
    private final Map<String, Counter> sent;
    private final Counter duplicates;
    private final Counter poison;

    SmsWorkers(JdbcTemplate jdbc, JsonMapper json, MeterRegistry registry) {
        this.jdbc = jdbc;
        this.json = json;
        this.duplicates = Counter.builder("notifications.duplicates")
                .description("SMS tasks delivered again after they were done: counted, not sent again").register(registry);
        this.poison = Counter.builder("notifications.poison")
                .description("messages on notifications.sms that are not SMS tasks: dead-lettered").register(registry);
        jdbc.execute("""
                CREATE TABLE IF NOT EXISTS notification_log (
                  task_id VARCHAR(64) PRIMARY KEY,
                  order_id VARCHAR(64) NOT NULL,
                  worker VARCHAR(32) NOT NULL,
                  sent_at TIMESTAMP WITH TIME ZONE NOT NULL)""");
        this.sent = Map.of(WORKER_ONE, sent(registry, WORKER_ONE), WORKER_TWO, sent(registry, WORKER_TWO));
    }

    @RabbitListener(id = WORKER_ONE, queues = Topology.NOTIFICATION_QUEUE, concurrency = "1",
            autoStartup = "${lunchrush.notifications.workers-enabled:true}")
    void workerOne(Message message) {
        handle(WORKER_ONE, message);
    }

    @RabbitListener(id = WORKER_TWO, queues = Topology.NOTIFICATION_QUEUE, concurrency = "1",
            autoStartup = "${lunchrush.notifications.workers-enabled:true}")
    void workerTwo(Message message) {
        handle(WORKER_TWO, message);
    }

    void handle(String worker, Message message) {
        SmsTask task;
        try {
            task = json.readValue(message.getBody(), SmsTask.class);
        }
        catch (JacksonException ex) {
            poison.increment();
            throw new AmqpRejectAndDontRequeueException("not an SMS task: " + ex.getOriginalMessage());
        }
        if (task == null || task.taskId() == null || task.taskId().isBlank() || task.orderId() == null) {
            poison.increment();
            throw new AmqpRejectAndDontRequeueException("not an SMS task: no task id");
        }
        try {
            jdbc.update("INSERT INTO notification_log (task_id, order_id, worker, sent_at) VALUES (?, ?, ?, ?)",
                    task.taskId(), task.orderId(), worker, Timestamp.from(Instant.now()));
        }
        catch (DuplicateKeyException ex) {
            duplicates.increment();
            log.info("{}: task {} was done before, not sending again", worker, task.taskId());
            return;
        }
        log.debug("{}: SMS to {} for order {}: {}", worker, task.customerId(), task.orderId(), task.text());
        sent.get(worker).increment();
    }

    private static Counter sent(MeterRegistry registry, String worker) {
        return Counter.builder("notifications.sent").tag("worker", worker)
                .description("SMS tasks done, each exactly once").register(registry);
    }
}
