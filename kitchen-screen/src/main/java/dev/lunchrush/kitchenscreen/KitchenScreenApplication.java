package dev.lunchrush.kitchenscreen;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.EnableScheduling;

import dev.lunchrush.support.AdminSecurityConfiguration;
import dev.lunchrush.support.api.ApiDocumentation;

@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
@Import({AdminSecurityConfiguration.class, ApiDocumentation.class})
public class KitchenScreenApplication {

    public static void main(String[] args) {
        SpringApplication.run(KitchenScreenApplication.class, args);
    }
}
