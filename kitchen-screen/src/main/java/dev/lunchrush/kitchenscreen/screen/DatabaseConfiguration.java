package dev.lunchrush.kitchenscreen.screen;

import java.nio.file.Path;

import javax.sql.DataSource;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lunchrush.kitchenscreen.KitchenScreenProperties;
import dev.lunchrush.support.H2Files;

/**
 * The embedded H2 file database under {@code lunchrush.data-dir}. {@code WRITE_DELAY=0} makes every
 * commit reach the file before it returns: with H2's default delay, a kill -9 loses the last half
 * second of commits, and the screen would show those orders again after a restart.
 */
@Configuration(proxyBeanMethods = false)
class DatabaseConfiguration {

    @Bean
    DataSource dataSource(KitchenScreenProperties properties) {
        return H2Files.dataSource(Path.of(properties.dataDir()), "kitchen-screen", ";WRITE_DELAY=0", 4);
    }
}
