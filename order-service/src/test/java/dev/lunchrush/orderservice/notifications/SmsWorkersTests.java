package dev.lunchrush.orderservice.notifications;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.mockito.Mockito;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageBuilder;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerEndpoint;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import tools.jackson.databind.json.JsonMapper;

import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.OrderServiceTests;
import dev.lunchrush.orderservice.publishing.RabbitOrderPublisher;
import dev.lunchrush.orderservice.storage.LocalStore;
import dev.lunchrush.orderservice.storage.StoreSettings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The SMS task next to the log: every order placed in act 4 gives one task, which the SMS relay
 * reads from the log and puts on the real {@code notifications.sms} work queue; the two competing
 * workers do each exactly once. A malformed task in a batch is dead-lettered alone, and a store that
 * fails for a moment costs a retry, never the message.
 */
class SmsWorkersTests extends OrderServiceTests {

    @Autowired
    MeterRegistry registry;

    @Autowired
    RabbitTemplate rabbit;

    @Autowired
    JsonMapper json;

    @Autowired
    SmsWorkers workers;

    @Autowired
    LocalStore store;

    @Autowired
    RabbitOrderPublisher publisher;

    @Autowired
    StoreSettings storeSettings;

    @Autowired
    SmsGateway gateway;

    @Autowired
    @Qualifier(SmsWorkersConfiguration.CONTAINER_FACTORY)
    SimpleRabbitListenerContainerFactory containers;

    @AfterEach
    void backToActOne() {
        act("{\"act\":\"shared-queue\"}");
    }

    @Test
    void everyOrderInTheLogGivesOneSmsDoneOnceByOneOfTwoWorkers() {
        act("{\"act\":\"log\"}");
        double sentBefore = sent();
        double oneBefore = sent(SmsWorkers.WORKER_ONE);
        double twoBefore = sent(SmsWorkers.WORKER_TWO);
        List<String> orderIds = new ArrayList<>();

        // three groups, each relayed before the next is placed: at least three messages for the two workers
        int groups = 3;
        int perGroup = 10;
        for (int group = 0; group < groups; group++) {
            double enqueuedBefore = counter("notifications.enqueued");
            for (int i = 0; i < perGroup; i++) {
                var response = placeOrder();
                assertThat(response.statusCode()).isEqualTo(201);
                orderIds.add(json(response.body()).get("orderId").stringValue());
            }
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(counter("notifications.enqueued") - enqueuedBefore).isEqualTo(perGroup));
        }

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(sent() - sentBefore).isEqualTo(groups * perGroup));
        // this test's tasks, not the store's or the counters' totals: each done by one of the two, and both did some
        List<String> doneBy = orderIds.stream().map(workers::doneBy).toList();
        assertThat(doneBy).as("the worker of each of this test's orders").allSatisfy(worker ->
                assertThat(worker).isIn(SmsWorkers.WORKER_ONE, SmsWorkers.WORKER_TWO));
        assertThat(doneBy).as("the workers of this test's orders").contains(SmsWorkers.WORKER_ONE, SmsWorkers.WORKER_TWO);
        assertThat(sent(SmsWorkers.WORKER_ONE) - oneBefore + sent(SmsWorkers.WORKER_TWO) - twoBefore)
                .as("SMS sent by the two workers meanwhile").isEqualTo(groups * perGroup);
        assertThat(queueDepth(Topology.NOTIFICATION_QUEUE)).isZero();
    }

    @Test
    void aTaskDeliveredAgainIsCountedNotSentAgain() {
        String taskId = UUID.randomUUID().toString();
        SmsTask task = new SmsTask(taskId, taskId, "c-1", "k3", "Your order is on its way", System.currentTimeMillis());
        double sentBefore = sent();
        double duplicatesBefore = counter("notifications.duplicates");

        for (int i = 0; i < 3; i++) {
            rabbit.send("", Topology.NOTIFICATION_QUEUE, MessageBuilder.withBody(json.writeValueAsBytes(task))
                    .setContentType(MessageProperties.CONTENT_TYPE_JSON).build());
        }

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(counter("notifications.duplicates") - duplicatesBefore).isEqualTo(2));
        assertThat(sent() - sentBefore).isEqualTo(1);
        assertThat(workers.doneBy(taskId)).isNotNull();
    }

    @Test
    void aBatchOfTasksIsDoneTaskByTaskAndARepeatedTaskOnce() {
        SmsTask first = task();
        SmsTask second = task();
        double sentBefore = sent();
        double duplicatesBefore = counter("notifications.duplicates");

        rabbit.send("", Topology.NOTIFICATION_QUEUE, MessageBuilder.withBody(json.writeValueAsBytes(List.of(first, second, first)))
                .setContentType(MessageProperties.CONTENT_TYPE_JSON).build());

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(sent() - sentBefore).isEqualTo(2);
            assertThat(counter("notifications.duplicates") - duplicatesBefore).isEqualTo(1);
        });
        assertThat(workers.doneBy(first.taskId())).isNotNull();
        assertThat(workers.doneBy(second.taskId())).isNotNull();
    }

    @Test
    void aPoisonTaskIsDeadLetteredAndTheWorkersGoOn() {
        long deadBefore = queueDepth(Topology.DEAD_LETTER_QUEUE);
        double sentBefore = sent();
        SmsTask good = task();

        rabbit.send("", Topology.NOTIFICATION_QUEUE, MessageBuilder.withBody("not a task {".getBytes()).build());
        rabbit.send("", Topology.NOTIFICATION_QUEUE, MessageBuilder.withBody("[{\"text\":\"no id\"}]".getBytes()).build());
        rabbit.send("", Topology.NOTIFICATION_QUEUE, MessageBuilder.withBody(json.writeValueAsBytes(good)).build());

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(queueDepth(Topology.DEAD_LETTER_QUEUE) - deadBefore).isEqualTo(2);
            assertThat(sent() - sentBefore).isEqualTo(1);
        });
        assertThat(workers.doneBy(good.taskId())).isNotNull();
    }

    @Test
    void aBatchWithOneMalformedTaskDeadLettersThatTaskAloneAndDoesTheOthers() {
        long deadBefore = queueDepth(Topology.DEAD_LETTER_QUEUE);
        double sentBefore = sent();
        SmsTask first = task();
        SmsTask second = task();
        String messageId = "sms-test-" + UUID.randomUUID();
        String batch = "[" + json.writeValueAsString(first) + ",{\"text\":\"no id\"}," + json.writeValueAsString(second) + "]";

        rabbit.send("", Topology.NOTIFICATION_QUEUE, MessageBuilder.withBody(batch.getBytes(StandardCharsets.UTF_8))
                .setMessageId(messageId).setContentType(MessageProperties.CONTENT_TYPE_JSON).build());

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(sent() - sentBefore).as("the good tasks, sent").isEqualTo(2);
            assertThat(queueDepth(Topology.DEAD_LETTER_QUEUE) - deadBefore).as("dead-lettered").isEqualTo(1);
        });
        assertThat(workers.doneBy(first.taskId())).isNotNull();
        assertThat(workers.doneBy(second.taskId())).isNotNull();
        Message deadLettered = deadLettered(messageId + "-not-a-task-1");
        assertThat(json.readTree(deadLettered.getBody())).as("the malformed task alone")
                .isEqualTo(json.readTree("{\"text\":\"no id\"}"));
    }

    @Test
    void aStoreThatFailsForAMomentIsAskedAgainAndTheMessageIsDoneOnceNeverDeadLettered() throws Exception {
        // the store fails more often than a delivery asks it which tasks are done: the first delivery gives up, before
        // it sent anything, and puts the message back
        AtomicInteger failures = new AtomicInteger(SmsWorkers.STORE_ATTEMPTS + 2);
        LocalStore failing = Mockito.spy(store);
        Mockito.doAnswer(call -> {
            if (failures.getAndDecrement() > 0) {
                throw new LocalStore.StoreException("injected: the disk cannot be read", null);
            }
            return call.callRealMethod();
        }).when(failing).get(Mockito.eq(LocalStore.Family.NOTIFICATIONS), Mockito.any());
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        SmsWorkers faulty = new SmsWorkers(failing, storeSettings, gateway, json, publisher, meters);
        // a queue of its own, declared as notifications.sms is (dead letters to orders.dlx), and a worker of the
        // service's own container factory: prefetch, rejection and requeue as the workers have them
        String queue = rabbitAdmin.declareQueue(QueueBuilder.nonDurable("notifications.sms.test-" + UUID.randomUUID())
                .autoDelete().deadLetterExchange(Topology.DEAD_LETTER_EXCHANGE).build());
        SimpleRabbitListenerEndpoint endpoint = new SimpleRabbitListenerEndpoint();
        endpoint.setId("sms-store-fault-" + UUID.randomUUID());
        endpoint.setQueueNames(queue);
        endpoint.setMessageListener(message -> faulty.handle(SmsWorkers.WORKER_ONE, message));
        SimpleMessageListenerContainer container = containers.createListenerContainer(endpoint);
        long deadBefore = queueDepth(Topology.DEAD_LETTER_QUEUE);
        List<SmsTask> tasks = List.of(task(), task(), task());
        container.start();
        try {
            rabbit.send("", queue, MessageBuilder.withBody(json.writeValueAsBytes(tasks))
                    .setContentType(MessageProperties.CONTENT_TYPE_JSON).build());

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(meters.get("notifications.sent").tag("worker", SmsWorkers.WORKER_ONE).counter().count())
                        .as("tasks sent").isEqualTo(3);
                assertThat(queueDepth(queue)).isZero();
            });
        }
        finally {
            container.stop();
        }
        assertThat(meters.get("notifications.requeued").counter().count()).as("deliveries given back").isEqualTo(1);
        assertThat(meters.get("notifications.store.retries").counter().count()).as("the store asked again")
                .isEqualTo(SmsWorkers.STORE_ATTEMPTS + 1);
        assertThat(meters.get("notifications.duplicates").counter().count()).isZero();
        assertThat(queueDepth(Topology.DEAD_LETTER_QUEUE) - deadBefore).as("dead-lettered").isZero();
        assertThat(tasks).allSatisfy(task -> assertThat(workers.doneBy(task.taskId())).isEqualTo(SmsWorkers.WORKER_ONE));
    }

    /** Takes messages off the dead-letter queue until the one with this id (others' stay behind them or are read). */
    private Message deadLettered(String messageId) {
        List<Message> read = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            Message message = rabbit.receive(Topology.DEAD_LETTER_QUEUE, 1000);
            if (message != null) {
                read.add(message);
            }
            return message != null && messageId.equals(message.getMessageProperties().getMessageId());
        });
        return read.get(read.size() - 1);
    }

    private static SmsTask task() {
        String taskId = UUID.randomUUID().toString();
        return new SmsTask(taskId, taskId, "c-2", "k1", "ok", System.currentTimeMillis());
    }

    private double sent() {
        return registry.get("notifications.sent").counters().stream().mapToDouble(counter -> counter.count()).sum();
    }

    private double sent(String worker) {
        return registry.get("notifications.sent").tag("worker", worker).counter().count();
    }

    private double counter(String name) {
        return registry.get(name).counter().count();
    }
}
