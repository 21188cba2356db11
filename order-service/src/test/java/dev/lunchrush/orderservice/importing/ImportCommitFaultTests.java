package dev.lunchrush.orderservice.importing;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.orderservice.AtCommit;
import dev.lunchrush.orderservice.OrdersTopic;
import dev.lunchrush.orderservice.StalledBrokersTests;

import static dev.lunchrush.orderservice.importing.ImportBodies.array;
import static dev.lunchrush.orderservice.importing.ImportBodies.order;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An import whose commit meets a broker that is slow, frozen or dead, on a real broker in a process of its own: the
 * fault is done at the moment the batch's records are all acknowledged, so the commit is asked of the broker as the
 * fault left it. Whatever Kafka then does with the commit, the answer never says that nothing was written unless
 * nothing was, and the batch sent again under its Idempotency-Key is in the log exactly once.
 */
class ImportCommitFaultTests extends StalledBrokersTests {

    private static final int ORDERS = 30;

    @BeforeEach
    void transactionsReady() {
        // the broker's first transaction creates its transaction log: a batch that needs no fault before the others
        sentAgainUntil(200, () -> importOrders(batch("c-warm-up"), null));
    }

    @AfterEach
    void brokerGoesOn() {
        KAFKA.thaw();
    }

    @Test
    void aCommitLeftUnansweredIsOfUnknownOutcomeAndTheBatchSentAgainIsInTheLogOnce() {
        String customer = "c-frozen-commit-" + UUID.randomUUID();
        String key = "backfill-" + UUID.randomUUID();
        String body = batch(customer);
        AtCommit.arm(ORDERS, KAFKA::freeze);

        HttpResponse<String> first;
        try {
            // the import's budget is 8 s: its commit is asked again while the broker stands still, then given up
            first = importOrders(body, key);
        }
        finally {
            KAFKA.thaw();
        }

        assertThat(AtCommit.done()).as("the broker froze at the batch's commit").isTrue();
        assertThat(first.statusCode()).as(first.body()).isEqualTo(503);
        assertThat(json(first.body()).get("title").stringValue()).isEqualTo("Outcome unknown");
        assertThat(first.body()).contains("may be in the log or not").doesNotContain("none of it");

        HttpResponse<String> retried = sentAgainUntil(200, () -> importOrders(body, key));
        HttpResponse<String> again = importOrders(body, key);

        assertThat(json(retried.body()).get("imported").intValue()).isEqualTo(ORDERS);
        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(again.body()).isEqualTo(retried.body());
        assertOnceInTheLog(customer);
    }

    @Test
    void aCommitAnsweredLateWithinTheBudgetIsWrittenOnceAndAnsweredAtOnce() throws Exception {
        String customer = "c-slow-commit-" + UUID.randomUUID();
        String key = "backfill-" + UUID.randomUUID();
        // frozen for 3 s: longer than the commit's wait (2 s), shorter than the import's budget (8 s)
        AtCommit.arm(ORDERS, () -> {
            KAFKA.freeze();
            CompletableFuture.delayedExecutor(3, TimeUnit.SECONDS).execute(KAFKA::thaw);
        });

        HttpResponse<String> response = importOrders(batch(customer), key);

        assertThat(AtCommit.done()).isTrue();
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(json(response.body()).get("imported").intValue()).isEqualTo(ORDERS);
        assertOnceInTheLog(customer);
    }

    @Test
    void aBrokerKilledAtTheCommitAndRestartedGetsTheBatchSentAgainOnce() {
        String customer = "c-killed-commit-" + UUID.randomUUID();
        String key = "backfill-" + UUID.randomUUID();
        String body = batch(customer);
        AtCommit.arm(ORDERS, KAFKA::kill);

        HttpResponse<String> first = importOrders(body, key);
        assertThat(AtCommit.done()).as("the broker was killed at the batch's commit").isTrue();
        KAFKA.restart();

        assertThat(first.statusCode()).as(first.body()).isEqualTo(503);
        assertThat(first.body()).doesNotContain("none of it");
        sentAgainUntil(200, () -> importOrders(body, key));
        assertOnceInTheLog(customer);
    }

    private static void assertOnceInTheLog(String customer) {
        List<ConsumerRecord<String, byte[]>> records = OrdersTopic.readAll(KAFKA.bootstrapServers(),
                event -> event.customerId().equals(customer));
        assertThat(records).as("the batch's orders in the log, read committed").hasSize(ORDERS);
        assertThat(records.stream().map(record -> OrderEventCodec.decode(record.value()).orderId()).distinct())
                .hasSize(ORDERS);
    }

    /** {@value #ORDERS} past orders of one customer, over the three partitions (kitchens k1, k2, k3). */
    private static String batch(String customer) {
        String past = Instant.now().minus(Duration.ofHours(2)).toString();
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            String kitchen = List.of("k1", "k2", "k3").get(i % 3);
            String dish = List.of("margherita", "ramen", "pad-thai").get(i % 3);
            orders.add(order(past, customer, dish).replace("\"k3\"", "\"" + kitchen + "\""));
        }
        return array(orders);
    }
}
