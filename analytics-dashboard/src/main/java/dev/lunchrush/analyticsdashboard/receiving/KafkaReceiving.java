package dev.lunchrush.analyticsdashboard.receiving;

import org.springframework.context.annotation.Configuration;

import dev.lunchrush.analyticsdashboard.processing.OrderProcessor;
import dev.lunchrush.events.Source;
import dev.lunchrush.support.receiving.KafkaReaderConfiguration;

/** The log's topics and error handling as every reader declares them; a dead-lettered record counts with the processor. */
@Configuration(proxyBeanMethods = false)
class KafkaReceiving extends KafkaReaderConfiguration {

    KafkaReceiving(OrderProcessor processor) {
        super(() -> processor.deadLettered(Source.KAFKA));
    }
}
