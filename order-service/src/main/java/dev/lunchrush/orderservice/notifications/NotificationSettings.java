package dev.lunchrush.orderservice.notifications;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The SMS work queue's switches ({@code lunchrush.notifications.*}). The listener annotations of
 * {@link SmsRelay} and {@link SmsWorkers} read them through placeholders (an annotation's attribute can take
 * nothing else), with the same defaults as here; this record declares them for the configuration metadata
 * ({@code SettingsMetadataTests} holds the two defaults together).
 *
 * @param relayEnabled whether the relay (the log to {@code notifications.sms}) starts
 * @param workersEnabled whether the two competing SMS workers start
 */
@ConfigurationProperties("lunchrush.notifications")
record NotificationSettings(@DefaultValue("true") boolean relayEnabled, @DefaultValue("true") boolean workersEnabled) {
}
