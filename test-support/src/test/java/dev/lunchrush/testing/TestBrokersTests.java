package dev.lunchrush.testing;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class TestBrokersTests {

    @Test
    void givesARabbitVirtualHostThatTakesMessages() throws Exception {
        try (Connection connection = TestBrokers.rabbit().connectionFactory().newConnection(); Channel channel = connection.createChannel()) {
            channel.queueDeclare("probe", false, false, true, null);
            // confirms on before the publish, so that waitForConfirmsOrDie waits for this message's confirm
            channel.confirmSelect();
            channel.basicPublish("", "probe", null, new byte[] {1});
            channel.waitForConfirmsOrDie(5000);
            assertThat(channel.messageCount("probe")).isEqualTo(1);
        }
    }

    @Test
    void givesAKafkaBrokerThatCreatesTopics() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("probe", 3, (short) 1))).all().get();
            // the controller has the topic once createTopics returns; the broker that answers listTopics learns of it a
            // moment later, so the listing is read again until it names the topic
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(admin.listTopics().names().get(5, TimeUnit.SECONDS)).contains("probe"));
        }
    }
}
