package dev.lunchrush.orderservice.notifications;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.amqp.AmqpRejectAndDontRequeueException;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.storage.LocalStore;

/**
 * Two competing workers on {@code notifications.sms}: each message goes to one of them (work queue,
 * prefetch 1). A message holds one task (a JSON object) or the tasks of one batch of the log (a JSON
 * array, as {@link SmsRelay} sends them). "Done once" is made sure of by the notification log in the
 * {@link LocalStore}, keyed by task id: a worker first claims the task there, and only the worker
 * whose claim succeeded sends; a task delivered again (a worker died before its ack, RabbitMQ
 * restarted, the relay sent a batch again) finds its entry, is counted as a duplicate and not sent.
 * Done tasks are remembered for {@code lunchrush.store.notifications-retention}. There is no SMS
 * gateway here: sending is a log line and a counter. With a real gateway the task id would go along
 * as its idempotency key, which closes the gap between the claim and the send.
 */
@Component
class SmsWorkers {

    private static final Logger log = LoggerFactory.getLogger(SmsWorkers.class);

    static final String WORKER_ONE = "sms-worker-1";
    static final String WORKER_TWO = "sms-worker-2";

    private final LocalStore store;
    private final JsonMapper json;
    private final Map<String, Counter> sent;
    private final Counter duplicates;
    private final Counter poison;
    private final Object claims = new Object();

    SmsWorkers(LocalStore store, JsonMapper json, MeterRegistry registry) {
        this.store = store;
        this.json = json;
        this.duplicates = Counter.builder("notifications.duplicates")
                .description("SMS tasks delivered again after they were done: counted, not sent again").register(registry);
        this.poison = Counter.builder("notifications.poison")
                .description("messages on notifications.sms that are not SMS tasks: dead-lettered").register(registry);
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
        List<SmsTask> tasks = tasks(message.getBody());
        List<SmsTask> claimed = claim(worker, tasks);
        for (SmsTask task : claimed) {
            log.debug("{}: SMS to {} for order {}: {}", worker, task.customerId(), task.orderId(), task.text());
        }
        sent.get(worker).increment(claimed.size());
        if (claimed.size() < tasks.size()) {
            duplicates.increment(tasks.size() - claimed.size());
        }
    }

    /** The message's tasks; a message that is not one task or an array of tasks is poison (dead-lettered whole). */
    private List<SmsTask> tasks(byte[] body) {
        try {
            JsonNode root = json.readTree(body);
            List<SmsTask> tasks = new ArrayList<>();
            if (root != null && root.isArray()) {
                for (JsonNode element : root) {
                    tasks.add(valid(json.treeToValue(element, SmsTask.class)));
                }
            }
            else if (root != null && root.isObject()) {
                tasks.add(valid(json.treeToValue(root, SmsTask.class)));
            }
            else {
                throw new IllegalArgumentException("neither a task nor an array of tasks");
            }
            return tasks;
        }
        catch (JacksonException | IllegalArgumentException ex) {
            poison.increment();
            throw new AmqpRejectAndDontRequeueException("not an SMS task: " + ex.getMessage());
        }
    }

    private static SmsTask valid(SmsTask task) {
        if (task == null || task.taskId() == null || task.taskId().isBlank() || task.orderId() == null) {
            throw new IllegalArgumentException("no task id");
        }
        return task;
    }

    /**
     * The tasks this worker claims first, in one write to the store for the whole message; the claims are
     * in the store before anything is sent. A task claimed before (by either worker, within the
     * retention) is left out, and so is a second copy of a task within the message.
     */
    private List<SmsTask> claim(String worker, List<SmsTask> tasks) {
        byte[] workerName = worker.getBytes(StandardCharsets.US_ASCII);
        List<SmsTask> claimed = new ArrayList<>(tasks.size());
        List<LocalStore.Entry> claims = new ArrayList<>(tasks.size());
        Set<String> inThisMessage = new HashSet<>();
        synchronized (this.claims) {
            long now = System.currentTimeMillis();
            for (SmsTask task : tasks) {
                byte[] key = task.taskId().getBytes(StandardCharsets.UTF_8);
                if (!inThisMessage.add(task.taskId()) || store.get(LocalStore.Family.NOTIFICATIONS, key) != null) {
                    log.info("{}: task {} was done before, not sending again", worker, task.taskId());
                    continue;
                }
                claims.add(new LocalStore.Entry(key, ByteBuffer.allocate(8 + workerName.length).putLong(now).put(workerName).array()));
                claimed.add(task);
            }
            store.putAll(LocalStore.Family.NOTIFICATIONS, claims);
        }
        return claimed;
    }

    /** The worker that did the task, or null when no worker did it (yet, or within the retention). */
    @Nullable String doneBy(String taskId) {
        byte[] done = store.get(LocalStore.Family.NOTIFICATIONS, taskId.getBytes(StandardCharsets.UTF_8));
        return done == null ? null : new String(done, 8, done.length - 8, StandardCharsets.US_ASCII);
    }

    private static Counter sent(MeterRegistry registry, String worker) {
        return Counter.builder("notifications.sent").tag("worker", worker)
                .description("SMS tasks done, each exactly once").register(registry);
    }
}
