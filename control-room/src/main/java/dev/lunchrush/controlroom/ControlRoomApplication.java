package dev.lunchrush.controlroom;

import java.time.Clock;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import dev.lunchrush.localstack.access.Endpoints;
import dev.lunchrush.support.SecurityProperties;
import dev.lunchrush.support.api.ApiDocumentation;

@SpringBootApplication
@Import(ApiDocumentation.class)
@ConfigurationPropertiesScan
@EnableConfigurationProperties(SecurityProperties.class)
public class ControlRoomApplication {

    public static void main(String[] args) {
        SpringApplication.run(ControlRoomApplication.class, args);
    }

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** Where the services answer, as the rush and the lesson's poll reach them. */
    @Bean
    Endpoints endpoints(StackProperties stack) {
        return new Endpoints(stack.orderServiceUrl(), stack.kitchenScreenUrl(), stack.analyticsDashboardUrl(),
                stack.reportReplayerUrl(), stack.backlogMonitorUrl());
    }
}
