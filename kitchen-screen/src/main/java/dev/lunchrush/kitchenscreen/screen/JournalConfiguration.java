package dev.lunchrush.kitchenscreen.screen;

import java.nio.file.Path;
import java.time.Clock;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lunchrush.kitchenscreen.KitchenScreenProperties;

/** The journal of shown orders under {@code lunchrush.data-dir}, with its retention and its bound. */
@Configuration(proxyBeanMethods = false)
class JournalConfiguration {

    @Bean(destroyMethod = "close")
    ShownJournal shownJournal(KitchenScreenProperties properties) {
        return new ShownJournal(Path.of(properties.dataDir()), properties.screen().rememberShown(),
                properties.screen().rememberMaxOrders(), Clock.systemUTC());
    }
}
