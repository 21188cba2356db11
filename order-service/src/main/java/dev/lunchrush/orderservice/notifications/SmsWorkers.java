package dev.lunchrush.orderservice.notifications;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
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
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.orderservice.publishing.RabbitOrderPublisher;
import dev.lunchrush.orderservice.storage.LocalStore;
import dev.lunchrush.orderservice.storage.StoreSettings;

/**
 * Two competing workers on {@code notifications.sms}: each message goes to one of them (work queue,
 * prefetch 1). A message holds one task (a JSON object) or the tasks of one batch of the log (a JSON
 * array, as {@link SmsRelay} sends them). A task is sent at least once and texted once:
 * <ul>
 * <li>a worker claims the task in memory (so that the other worker, given a copy of it meanwhile, leaves it),
 * sends it through the {@link SmsGateway} with its id as the gateway's idempotency key, and only then records it
 * done in the {@link LocalStore}'s notification log; a send that fails, or a worker that stops before it sent, leaves
 * the task to a later delivery; a task sent and not recorded (a store that fails, a worker killed in between) is sent
 * again at its redelivery, and the gateway texts it once;</li>
 * <li>a task delivered again after it was recorded done (a redelivery, the relay's batch sent again, the relay's
 * group reset) finds its entry, is counted as a duplicate and not sent. Done tasks are remembered for
 * {@code lunchrush.store.notifications-retention}, by default as long as the log keeps orders, so that no reset of
 * the relay's group can reach an order whose SMS was forgotten; where the retention is set shorter, a task whose
 * order is older than it is not sent (the store can no longer tell whether it was) and says so.</li>
 * </ul>
 *
 * <p>One bad part never costs the others their work. A task in a batch that is not a task (no id, not an
 * object) is dead-lettered alone, as a message of its own on {@code orders.dlx}, and the others are done;
 * only a message that is no task and no array at all is rejected whole. A store or a gateway that fails (a passing
 * error) is asked again a few times with a growing pause ({@value #STORE_ATTEMPTS} attempts within about two
 * seconds); if it still fails, the message goes back to the queue, whole, for a worker to try again: nothing is
 * dead-lettered or lost for such an error, and a task recorded done before is not sent again.
 */
@Component
class SmsWorkers {

    private static final Logger log = LoggerFactory.getLogger(SmsWorkers.class);

    static final String WORKER_ONE = "sms-worker-1";
    static final String WORKER_TWO = "sms-worker-2";

    /** Attempts at the store, or at the gateway for one task, within one delivery of a message, before it goes back to the queue. */
    static final int STORE_ATTEMPTS = 6;

    private final LocalStore store;
    private final Duration remembered;
    private final SmsGateway gateway;
    private final JsonMapper json;
    private final RabbitOrderPublisher rabbit;
    private final Map<String, Counter> sent;
    private final Counter duplicates;
    private final Counter tooOld;
    private final Counter poison;
    private final Counter storeRetries;
    private final Counter sendRetries;
    private final Counter requeued;
    private final RetryPolicy<Object> storeRetry;
    private final RetryPolicy<Object> sendRetry;
    /** Tasks a worker claimed and has not finished: sending, or recording them done. */
    private final Set<String> claimed = new HashSet<>();

    SmsWorkers(LocalStore store, StoreSettings settings, SmsGateway gateway, JsonMapper json, RabbitOrderPublisher rabbit,
            MeterRegistry registry) {
        this.store = store;
        this.remembered = settings.notificationsRetention();
        this.gateway = gateway;
        this.json = json;
        this.rabbit = rabbit;
        this.duplicates = Counter.builder("notifications.duplicates")
                .description("SMS tasks delivered again after they were done: counted, not sent again").register(registry);
        this.poison = Counter.builder("notifications.poison")
                .description("messages on notifications.sms, or tasks within one, that are not SMS tasks: dead-lettered")
                .register(registry);
        this.tooOld = Counter.builder("notifications.too.old")
                .description("SMS tasks whose order is older than the done tasks' retention: not sent, as they may have been")
                .register(registry);
        this.storeRetries = Counter.builder("notifications.store.retries")
                .description("reads or writes of an SMS message's tasks asked of the store again after it failed")
                .register(registry);
        this.sendRetries = Counter.builder("notifications.send.retries")
                .description("SMS sends asked of the gateway again after it failed").register(registry);
        this.requeued = Counter.builder("notifications.requeued")
                .description("SMS messages sent back to their queue whole because the store or the gateway kept failing")
                .register(registry);
        this.sent = Map.of(WORKER_ONE, sent(registry, WORKER_ONE), WORKER_TWO, sent(registry, WORKER_TWO));
        this.storeRetry = RetryPolicy.builder()
                .handle(LocalStore.StoreException.class)
                .withBackoff(Duration.ofMillis(50), Duration.ofSeconds(1))
                .withMaxAttempts(STORE_ATTEMPTS)
                .onRetry(event -> storeRetries.increment())
                .build();
        this.sendRetry = RetryPolicy.builder()
                .handle(RuntimeException.class)
                .withBackoff(Duration.ofMillis(50), Duration.ofSeconds(1))
                .withMaxAttempts(STORE_ATTEMPTS)
                .onRetry(event -> sendRetries.increment())
                .build();
    }

    @RabbitListener(id = WORKER_ONE, queues = Topology.NOTIFICATION_QUEUE, concurrency = "1",
            containerFactory = SmsWorkersConfiguration.CONTAINER_FACTORY)
    void workerOne(Message message) {
        handle(WORKER_ONE, message);
    }

    @RabbitListener(id = WORKER_TWO, queues = Topology.NOTIFICATION_QUEUE, concurrency = "1",
            containerFactory = SmsWorkersConfiguration.CONTAINER_FACTORY)
    void workerTwo(Message message) {
        handle(WORKER_TWO, message);
    }

    void handle(String worker, Message message) {
        Tasks tasks = tasks(message.getBody());
        Claim claim;
        try {
            claim = Failsafe.with(storeRetry).get(() -> claim(worker, tasks.good()));
        }
        catch (LocalStore.StoreException ex) {
            throw requeue(worker, "the store failed " + STORE_ATTEMPTS + " times to say which of " + tasks.good().size()
                    + " tasks are done (" + ex.getMessage() + ")", ex);
        }
        duplicates.increment(claim.duplicates());
        refuseTooOld(worker, claim.tooOld());
        try {
            send(worker, claim.mine());
        }
        finally {
            release(claim.mine());
        }
        deadLetter(worker, message, tasks.bad());
    }

    /**
     * Sends each task, then records them done (one write); a task the gateway keeps refusing ends the delivery: the
     * ones sent before it are recorded, the message goes back to the queue. The gateway is asked again for the task
     * it refused, and goes on from there ({@value #STORE_ATTEMPTS} attempts for the message's tasks together).
     */
    private void send(String worker, List<SmsTask> tasks) {
        if (tasks.isEmpty()) {
            return;
        }
        List<SmsTask> done = new ArrayList<>(tasks.size());
        RuntimeException refused = null;
        try {
            Failsafe.with(sendRetry).run(() -> {
                for (int next = done.size(); next < tasks.size(); next++) {
                    gateway.send(tasks.get(next));
                    done.add(tasks.get(next));
                }
            });
        }
        catch (RuntimeException ex) {
            refused = ex;
        }
        sent.get(worker).increment(done.size());
        try {
            Failsafe.with(storeRetry).run(() -> recordDone(worker, done));
        }
        catch (LocalStore.StoreException ex) {
            throw requeue(worker, done.size() + " tasks were sent and the store failed " + STORE_ATTEMPTS
                    + " times to record them done (" + ex.getMessage() + "): their redelivery sends them again", ex);
        }
        if (refused != null) {
            throw requeue(worker, "the SMS gateway failed " + STORE_ATTEMPTS + " times to take task "
                    + tasks.get(done.size()).taskId() + " (" + refused.getMessage() + ")", refused);
        }
    }

    private ImmediateRequeueAmqpException requeue(String worker, String why, Throwable cause) {
        requeued.increment();
        log.warn("{}: {}; the message goes back to the queue", worker, why);
        return new ImmediateRequeueAmqpException(why, cause);
    }

    /** Tasks whose orders are older than the store remembers done tasks: a reset of the relay past that. */
    private void refuseTooOld(String worker, List<SmsTask> tasks) {
        if (tasks.isEmpty()) {
            return;
        }
        tooOld.increment(tasks.size());
        log.warn("{}: {} SMS tasks of orders placed before {} are not sent: done tasks are remembered for {} "
                + "(lunchrush.store.notifications-retention), so whether they were texted is no longer known. "
                + "Was the group {} reset past that? The first: {}", worker, tasks.size(),
                Instant.now().minus(remembered), remembered, SmsRelay.GROUP, tasks.get(0).taskId());
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
     * Which of the message's tasks this worker sends: not those recorded done (by either worker, within the
     * retention), claimed by the other worker meanwhile, repeated within the message, or older than the retention.
     * The claims are in memory, taken only once every read of the store succeeded.
     */
    private Claim claim(String worker, List<SmsTask> tasks) {
        List<SmsTask> mine = new ArrayList<>(tasks.size());
        List<SmsTask> tooOld = new ArrayList<>();
        int duplicates = 0;
        Set<String> inThisMessage = new HashSet<>();
        long oldest = System.currentTimeMillis() - remembered.toMillis();
        synchronized (this.claimed) {
            for (SmsTask task : tasks) {
                if (!inThisMessage.add(task.taskId())) {
                    duplicates++;
                }
                else if (task.placedAtMillis() != null && task.placedAtMillis() < oldest) {
                    tooOld.add(task);
                }
                else if (this.claimed.contains(task.taskId())
                        || store.get(LocalStore.Family.NOTIFICATIONS, task.taskId().getBytes(StandardCharsets.UTF_8)) != null) {
                    log.info("{}: task {} was done before, not sending again", worker, task.taskId());
                    duplicates++;
                }
                else {
                    mine.add(task);
                }
            }
            mine.forEach(task -> this.claimed.add(task.taskId()));
        }
        return new Claim(mine, duplicates, tooOld);
    }

    private void release(List<SmsTask> tasks) {
        synchronized (this.claimed) {
            tasks.forEach(task -> this.claimed.remove(task.taskId()));
        }
    }

    /** The tasks recorded done by this worker, in one write to the store: all of them, or none. */
    private void recordDone(String worker, List<SmsTask> tasks) {
        byte[] workerName = worker.getBytes(StandardCharsets.US_ASCII);
        long now = System.currentTimeMillis();
        List<LocalStore.Entry> entries = new ArrayList<>(tasks.size());
        for (SmsTask task : tasks) {
            entries.add(new LocalStore.Entry(task.taskId().getBytes(StandardCharsets.UTF_8),
                    ByteBuffer.allocate(8 + workerName.length).putLong(now).put(workerName).array()));
        }
        store.putAll(LocalStore.Family.NOTIFICATIONS, entries);
    }

    /** The tasks a worker sends, and how many of the others were done before or are too old to tell. */
    private record Claim(List<SmsTask> mine, int duplicates, List<SmsTask> tooOld) {
    }

    /** The worker that did the task, or null when no worker recorded it done (yet, or within the retention). */
    @Nullable String doneBy(String taskId) {
        byte[] done = store.get(LocalStore.Family.NOTIFICATIONS, taskId.getBytes(StandardCharsets.UTF_8));
        return done == null ? null : new String(done, 8, done.length - 8, StandardCharsets.US_ASCII);
    }

    private static Counter sent(MeterRegistry registry, String worker) {
        return Counter.builder("notifications.sent").tag("worker", worker)
                .description("SMS tasks handed to the gateway: once each, again only when a task sent could not be recorded done")
                .register(registry);
    }
}
