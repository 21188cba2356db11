package dev.lunchrush.kitchenscreen.receiving;

import org.springframework.context.annotation.Configuration;

import dev.lunchrush.events.Source;
import dev.lunchrush.kitchenscreen.screen.KitchenScreen;
import dev.lunchrush.support.receiving.KafkaReaderConfiguration;

/** The log's topics and error handling as every reader declares them; a dead-lettered record counts on the screen. */
@Configuration(proxyBeanMethods = false)
class KafkaReceiving extends KafkaReaderConfiguration {

    KafkaReceiving(KitchenScreen screen) {
        super(() -> screen.deadLettered(Source.KAFKA));
    }
}
