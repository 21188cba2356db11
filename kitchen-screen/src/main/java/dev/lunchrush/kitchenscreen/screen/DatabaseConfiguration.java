package dev.lunchrush.kitchenscreen.screen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lunchrush.kitchenscreen.KitchenScreenProperties;

/**
 * The embedded H2 file database under {@code lunchrush.data-dir}. {@code WRITE_DELAY=0} makes every
 * commit reach the file before it returns: with H2's default delay, a kill -9 loses the last half
 * second of commits, and the screen would show those orders again after a restart.
 */
@Configuration(proxyBeanMethods = false)
class DatabaseConfiguration {

    @Bean
    DataSource dataSource(KitchenScreenProperties properties) {
        Path dir = Path.of(properties.dataDir()).toAbsolutePath();
        try {
            Files.createDirectories(dir);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot create the data folder " + dir, ex);
        }
        HikariDataSource dataSource = DataSourceBuilder.create().type(HikariDataSource.class)
                .url("jdbc:h2:file:" + dir.resolve("kitchen-screen") + ";WRITE_DELAY=0")
                .username("sa").password("").build();
        dataSource.setMaximumPoolSize(4);
        return dataSource;
    }
}
