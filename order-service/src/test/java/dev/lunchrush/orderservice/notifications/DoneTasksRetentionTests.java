package dev.lunchrush.orderservice.notifications;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.storage.StoreSettings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Done SMS tasks are remembered, by default, at least as long as the log keeps the orders they came from: a reset of
 * the SMS relay's group, however far back the log lets it go, finds every SMS it sent recorded done.
 */
class DoneTasksRetentionTests {

    private final ApplicationContextRunner context = new ApplicationContextRunner()
            .withUserConfiguration(StoreSettingsOnly.class);

    @Test
    void doneTasksAreRememberedAsLongAsTheLogKeepsOrders() {
        context.run(started -> assertThat(started.getBean(StoreSettings.class).notificationsRetention())
                .as("lunchrush.store.notifications-retention by default")
                .isGreaterThanOrEqualTo(Duration.ofDays(Topology.ORDERS_RETENTION_DAYS)));
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(StoreSettings.class)
    static class StoreSettingsOnly {
    }
}
