package dev.lunchrush.backlogmonitor;

import java.time.Clock;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import dev.lunchrush.support.AdminSecurityConfiguration;
import dev.lunchrush.support.api.ApiDocumentation;

@SpringBootApplication
@ConfigurationPropertiesScan
@Import({AdminSecurityConfiguration.class, ApiDocumentation.class})
public class BacklogMonitorApplication {

    public static void main(String[] args) {
        SpringApplication.run(BacklogMonitorApplication.class, args);
    }

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
