package dev.lunchrush.orderservice.menu;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lunchrush.events.Menu;

@Configuration(proxyBeanMethods = false)
class MenuConfiguration {

    @Bean
    Menu menu(MenuProperties properties) {
        return properties.toMenu();
    }
}
