package dev.lunchrush.reportreplayer.readiness;

import java.util.List;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;

import dev.lunchrush.support.readiness.ActReadiness;
import dev.lunchrush.support.readiness.BrokerChecks;

/** Ready when the log answers, in every act: a replay reads nothing else (the reports kept are served all the same). */
@Configuration(proxyBeanMethods = false)
class ReadinessConfiguration {

    @Bean(ActReadiness.NAME)
    ActReadiness sources(KafkaAdmin kafka) {
        return ActReadiness.always(List.of(BrokerChecks.Kafka.of(kafka, "report-replayer")));
    }
}
