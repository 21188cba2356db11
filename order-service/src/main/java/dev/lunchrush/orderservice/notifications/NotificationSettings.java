package dev.lunchrush.orderservice.notifications;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The SMS work queue's switches ({@code lunchrush.notifications.*}), their defaults here only: the relay's and the
 * workers' listener container factories ({@link SmsRelayConfiguration}, {@link SmsWorkersConfiguration}) start
 * their listeners by them.
 *
 * @param relayEnabled whether the relay (the log to {@code notifications.sms}) starts
 * @param workersEnabled whether the two competing SMS workers start
 */
@ConfigurationProperties("lunchrush.notifications")
record NotificationSettings(@DefaultValue("true") boolean relayEnabled, @DefaultValue("true") boolean workersEnabled) {
}
