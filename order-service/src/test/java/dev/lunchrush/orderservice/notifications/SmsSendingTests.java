package dev.lunchrush.orderservice.notifications;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.amqp.core.MessageBuilder;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerEndpoint;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;

import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.OrderServiceTests;
import dev.lunchrush.orderservice.publishing.RabbitOrderPublisher;
import dev.lunchrush.orderservice.storage.LocalStore;
import dev.lunchrush.orderservice.storage.StoreSettings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An SMS is recorded done only after it was sent, on the real work queue: a worker of the service's own container
 * factory (prefetch, requeue as the workers have them) on a queue of its own, with a gateway that records what it
 * texts. A write of the done record that lands and then reports a failure does not cost the SMS; a send the gateway
 * refuses leaves the task not done, and it is sent at a later delivery.
 */
class SmsSendingTests extends OrderServiceTests {

    @Autowired
    RabbitTemplate rabbit;

    @Autowired
    JsonMapper json;

    @Autowired
    LocalStore store;

    @Autowired
    StoreSettings storeSettings;

    @Autowired
    RabbitOrderPublisher publisher;

    @Autowired
    @Qualifier(SmsWorkersConfiguration.CONTAINER_FACTORY)
    SimpleRabbitListenerContainerFactory containers;

    @Test
    void aDoneRecordThatLandsAndThenReportsAFailureDoesNotCostTheSms() {
        // the first write of done records reaches the disk, then fails: the worker cannot tell that it landed
        AtomicBoolean failedOnce = new AtomicBoolean();
        LocalStore failing = Mockito.spy(store);
        Mockito.doAnswer(call -> {
            Object written = call.callRealMethod();
            if (failedOnce.compareAndSet(false, true)) {
                throw new LocalStore.StoreException("injected: written, then the disk reported an error", null);
            }
            return written;
        }).when(failing).putAll(Mockito.eq(LocalStore.Family.NOTIFICATIONS), Mockito.anyList());
        List<String> texted = new CopyOnWriteArrayList<>();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        SmsWorkers worker = new SmsWorkers(failing, storeSettings, task -> texted.add(task.taskId()), json, publisher, meters);
        List<SmsTask> tasks = List.of(task(), task(), task());

        work(worker, tasks, () -> assertThat(meters.get("notifications.sent").tag("worker", SmsWorkers.WORKER_ONE)
                .counter().count()).as("tasks sent").isEqualTo(3));

        assertThat(failedOnce).isTrue();
        assertThat(texted).as("texted, each once").containsExactlyInAnyOrderElementsOf(ids(tasks));
        assertThat(tasks).allSatisfy(task -> assertThat(doneBy(task)).isEqualTo(SmsWorkers.WORKER_ONE));
    }

    @Test
    void aSendTheGatewayRefusesLeavesTheTaskNotDoneAndItIsSentAtALaterDelivery() {
        // the gateway refuses more often than one delivery asks it: the message goes back to the queue
        AtomicInteger refusals = new AtomicInteger(SmsWorkers.STORE_ATTEMPTS + 1);
        List<String> texted = new CopyOnWriteArrayList<>();
        List<String> doneWhileRefused = new CopyOnWriteArrayList<>();
        SmsGateway refusing = task -> {
            if (refusals.getAndDecrement() > 0) {
                if (doneBy(task) != null) {
                    doneWhileRefused.add(task.taskId());
                }
                throw new IllegalStateException("injected: the SMS provider is away");
            }
            texted.add(task.taskId());
        };
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        SmsWorkers worker = new SmsWorkers(store, storeSettings, refusing, json, publisher, meters);
        SmsTask task = task();

        work(worker, List.of(task), () -> assertThat(texted).as("texted").containsExactly(task.taskId()));

        assertThat(doneWhileRefused).as("recorded done while the gateway refused it").isEmpty();
        assertThat(doneBy(task)).isEqualTo(SmsWorkers.WORKER_ONE);
        assertThat(meters.get("notifications.requeued").counter().count()).as("deliveries given back").isEqualTo(1);
        assertThat(meters.get("notifications.send.retries").counter().count()).as("sends asked again")
                .isEqualTo(SmsWorkers.STORE_ATTEMPTS);
        assertThat(meters.get("notifications.sent").tag("worker", SmsWorkers.WORKER_ONE).counter().count()).isEqualTo(1);
    }

    /**
     * The tasks, as one message, done by {@code worker} on a queue of its own (declared as notifications.sms is),
     * until {@code done} holds and the queue is empty.
     */
    private void work(SmsWorkers worker, List<SmsTask> tasks, Runnable done) {
        String queue = rabbitAdmin.declareQueue(QueueBuilder.nonDurable("notifications.sms.test-" + UUID.randomUUID())
                .autoDelete().deadLetterExchange(Topology.DEAD_LETTER_EXCHANGE).build());
        SimpleRabbitListenerEndpoint endpoint = new SimpleRabbitListenerEndpoint();
        endpoint.setId("sms-sending-" + UUID.randomUUID());
        endpoint.setQueueNames(queue);
        endpoint.setMessageListener(message -> worker.handle(SmsWorkers.WORKER_ONE, message));
        SimpleMessageListenerContainer container = containers.createListenerContainer(endpoint);
        container.start();
        try {
            rabbit.send("", queue, MessageBuilder.withBody(json.writeValueAsBytes(tasks))
                    .setContentType(MessageProperties.CONTENT_TYPE_JSON).build());
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                done.run();
                assertThat(queueDepth(queue)).isZero();
            });
        }
        finally {
            container.stop();
        }
    }

    private String doneBy(SmsTask task) {
        byte[] done = store.get(LocalStore.Family.NOTIFICATIONS, task.taskId().getBytes(StandardCharsets.UTF_8));
        return done == null ? null : new String(done, 8, done.length - 8, StandardCharsets.US_ASCII);
    }

    private static List<String> ids(List<SmsTask> tasks) {
        List<String> ids = new ArrayList<>();
        tasks.forEach(task -> ids.add(task.taskId()));
        return ids;
    }

    private static SmsTask task() {
        String taskId = UUID.randomUUID().toString();
        return new SmsTask(taskId, taskId, "c-3", "k2", "ok", System.currentTimeMillis());
    }
}
