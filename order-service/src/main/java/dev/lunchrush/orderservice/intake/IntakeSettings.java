package dev.lunchrush.orderservice.intake;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The intake's switch ({@code lunchrush.intake.*}), read by {@link IntakeServerCustomizer} through a placeholder
 * with the same default; declared here for the configuration metadata ({@code SettingsMetadataTests} holds the
 * two defaults together).
 *
 * @param onConnection whether {@code POST /orders} is answered on the connection by {@link OrderIntakeHandler};
 *     {@code false} leaves every order to the WebFlux controller (to compare the two)
 */
@ConfigurationProperties("lunchrush.intake")
record IntakeSettings(@DefaultValue("true") boolean onConnection) {
}
