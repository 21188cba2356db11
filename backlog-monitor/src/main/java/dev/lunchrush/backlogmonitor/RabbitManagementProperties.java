package dev.lunchrush.backlogmonitor;

import java.net.URI;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where RabbitMQ's management HTTP API answers. Credentials and virtual host are the ones of
 * {@code spring.rabbitmq.*}, so the monitor needs no second set of secrets.
 *
 * @param managementUri the base URI of RabbitMQ's management HTTP API
 */
@Validated
@ConfigurationProperties("lunchrush.rabbitmq")
public record RabbitManagementProperties(@DefaultValue("http://127.0.0.1:15672") @NotNull URI managementUri) {
}
