package dev.lunchrush.orderservice.notifications;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.amqp.AmqpRejectAndDontRequeueException;
import org.springframework.amqp.ImmediateRequeueAmqpException;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.problems.ProblemException;
import dev.lunchrush.orderservice.publishing.RabbitOrderPublisher;
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
 *
 * <p>One bad part never costs the others their work. A task in a batch that is not a task (no id, not an
 * object) is dead-lettered alone, as a message of its own on {@code orders.dlx}, and the others are done;
 * only a message that is no task and no array at all is rejected whole. A store that fails to read or
 * write the claims (a passing error) is asked again a few times with a growing pause ({@value #STORE_ATTEMPTS}
 * attempts within about two seconds); if it still fails, the message goes back to the queue, whole, for a
 * worker to try again: nothing is dead-lettered or lost for a store error, and a task claimed before is not
 * sent twice.
 */
@Component
class SmsWorkers {

    private static final Logger log = LoggerFactory.getLogger(SmsWorkers.class);

    static final String WORKER_ONE = "sms-worker-1";
    static final String WORKER_TWO = "sms-worker-2";

    /** Attempts at the store's claims for one delivery of a message, before it goes back to the queue. */
    static final int STORE_ATTEMPTS = 6;

    private final LocalStore store;
    private final JsonMapper json;
    private final RabbitOrderPublisher rabbit;
    private final Map<String, Counter> sent;
    private final Counter duplicates;
    private final Counter poison;
    private final Counter storeRetries;
    private final Counter requeued;
    private final RetryPolicy<List<SmsTask>> storeRetry;
    private final Object claims = new Object();

    SmsWorkers(LocalStore store, JsonMapper json, RabbitOrderPublisher rabbit, MeterRegistry registry) {
        this.store = store;
        this.json = json;
        this.rabbit = rabbit;
        this.duplicates = Counter.builder("notifications.duplicates")
                .description("SMS tasks delivered again after they were done: counted, not sent again").register(registry);
        this.poison = Counter.builder("notifications.poison")
                .description("messages on notifications.sms, or tasks within one, that are not SMS tasks: dead-lettered")
                .register(registry);
        this.storeRetries = Counter.builder("notifications.store.retries")
                .description("claims of an SMS message asked of the store again after it failed").register(registry);
        this.requeued = Counter.builder("notifications.requeued")
                .description("SMS messages sent back to their queue whole because the store kept failing").register(registry);
        this.sent = Map.of(WORKER_ONE, sent(registry, WORKER_ONE), WORKER_TWO, sent(registry, WORKER_TWO));
        this.storeRetry = RetryPolicy.<List<SmsTask>>builder()
                .handle(LocalStore.StoreException.class)
                .withBackoff(Duration.ofMillis(50), Duration.ofSeconds(1))
                .withMaxAttempts(STORE_ATTEMPTS)
                .onRetry(event -> storeRetries.increment())
                .build();
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
        Tasks tasks = tasks(message.getBody());
        List<SmsTask> claimed;
        try {
            claimed = Failsafe.with(storeRetry).get(() -> claim(worker, tasks.good()));
        }
        catch (LocalStore.StoreException ex) {
            requeued.increment();
            log.warn("{}: the store failed {} times for a message of {} tasks ({}): it goes back to the queue", worker,
                    STORE_ATTEMPTS, tasks.good().size(), ex.getMessage());
            throw new ImmediateRequeueAmqpException("the store failed: " + ex.getMessage(), ex);
        }
        for (SmsTask task : claimed) {
            log.debug("{}: SMS to {} for order {}: {}", worker, task.customerId(), task.orderId(), task.text());
        }
        sent.get(worker).increment(claimed.size());
        if (claimed.size() < tasks.good().size()) {
            duplicates.increment(tasks.good().size() - claimed.size());
        }
        deadLetter(worker, message, tasks.bad());
    }

    /**
     * The message's tasks, and the elements of a batch that are not tasks; a message that is neither one task
     * nor an array is poison whole (dead-lettered by RabbitMQ).
     */
    private Tasks tasks(byte[] body) {
        JsonNode root;
        try {
            root = json.readTree(body);
        }
        catch (JacksonException ex) {
            throw poison("not JSON: " + ex.getOriginalMessage());
        }
        if (root != null && root.isObject()) {
            SmsTask task = task(root);
            if (task == null) {
                throw poison("not an SMS task: " + root);
            }
            return new Tasks(List.of(task), List.of());
        }
        if (root == null || !root.isArray()) {
            throw poison("neither a task nor an array of tasks");
        }
        List<SmsTask> good = new ArrayList<>(root.size());
        List<Bad> bad = new ArrayList<>();
        for (int i = 0; i < root.size(); i++) {
            SmsTask task = task(root.get(i));
            if (task == null) {
                bad.add(new Bad(i, root.get(i)));
            }
            else {
                good.add(task);
            }
        }
        return new Tasks(good, bad);
    }

    private AmqpRejectAndDontRequeueException poison(String reason) {
        poison.increment();
        return new AmqpRejectAndDontRequeueException(reason);
    }

    /** The element as a task, or null when it is not one (not an object, no task or order id, wrong types). */
    private @Nullable SmsTask task(JsonNode element) {
        if (!element.isObject()) {
            return null;
        }
        try {
            SmsTask task = json.treeToValue(element, SmsTask.class);
            return task == null || task.taskId() == null || task.taskId().isBlank() || task.orderId() == null ? null : task;
        }
        catch (JacksonException ex) {
            return null;
        }
    }

    /**
     * Each element of the batch that is not a task, alone, as a message of its own to the dead-letter exchange
     * (confirmed); a failure sends the whole message back to the queue (its tasks are done by then, and a
     * redelivery finds them claimed).
     */
    private void deadLetter(String worker, Message message, List<Bad> bad) {
        String messageId = message.getMessageProperties().getMessageId();
        for (Bad element : bad) {
            String id = (messageId == null ? "sms" : messageId) + "-not-a-task-" + element.index();
            try {
                rabbit.publishAndWait(Topology.DEAD_LETTER_EXCHANGE, "", id, System.currentTimeMillis(),
                        json.writeValueAsBytes(element.json()));
            }
            catch (ProblemException ex) {
                throw new ImmediateRequeueAmqpException("could not dead-letter " + id + ": " + ex.detail(), ex);
            }
            poison.increment();
            log.warn("{}: element {} of message {} is not an SMS task: dead-lettered alone as {}", worker, element.index(),
                    messageId, id);
        }
    }

    /** A message's tasks, and its elements that are not tasks. */
    private record Tasks(List<SmsTask> good, List<Bad> bad) {
    }

    /** An element of a batch that is not a task, and its place in the batch. */
    private record Bad(int index, JsonNode json) {
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
