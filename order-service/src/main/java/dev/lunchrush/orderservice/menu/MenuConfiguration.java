package dev.lunchrush.orderservice.menu;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class MenuConfiguration {

    @Bean
    Menu menu(MenuProperties properties) {
        return properties.toMenu();
    }
}
