package dev.lunchrush.kitchenscreen.readiness;

import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.RestClient;

import dev.lunchrush.events.Act;
import dev.lunchrush.support.readiness.ActReadiness;
import dev.lunchrush.support.readiness.OrderServiceAct;
import dev.lunchrush.support.readiness.SourceCheck;
import dev.lunchrush.testing.OrderServiceActStub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Which sources the kitchen screen's readiness needs in each act, as the order service's {@code GET /api/act} says it. */
class ReadinessConfigurationTests {

    private final OrderServiceActStub orderService = new OrderServiceActStub();

    @AfterEach
    void stopTheOrderService() {
        orderService.close();
    }

    @Test
    void theQueuesInTheQueueActsTheLogInTheLogActBothBeforeTheOrderServiceAnswers() {
        assertThat(sourcesIn("shared-queue")).containsExactly("rabbitmq");
        assertThat(sourcesIn("queue-per-reader")).containsExactly("rabbitmq");
        assertThat(sourcesIn("memory-feed")).containsExactly("rabbitmq");
        assertThat(sourcesIn("log")).containsExactly("kafka");
        assertThat(sourcesIn("")).containsExactly("kafka", "rabbitmq");
    }

    private Set<String> sourcesIn(String current) {
        orderService.answer(current);
        OrderServiceAct said = new OrderServiceAct(orderService.uri(), RestClient.builder());
        if (!current.isEmpty()) {
            // a check waits a moment only: on a loaded machine the first answer may come on a later one
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> said.current().map(Act::id).filter(current::equals).isPresent());
        }
        ActReadiness readiness = ReadinessConfiguration.forTheAct(said,
                new SourceCheck("rabbitmq", () -> "up"), new SourceCheck("kafka", () -> "up"));
        Set<String> sources = new TreeSet<>(readiness.health().getDetails().keySet());
        sources.remove("act");
        return sources;
    }
}
