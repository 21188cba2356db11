package dev.lunchrush.analyticsdashboard.processing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lunchrush.analyticsdashboard.DashboardProperties;

/**
 * The embedded H2 file database under {@code lunchrush.data-dir}. {@code WRITE_DELAY=0} makes every
 * commit reach the file before it returns; with H2's default (500 ms) a kill -9 loses the last
 * commits, aggregates and offsets together, and those orders would be read again (not counted twice,
 * but the point of storing offsets is that a commit is a commit).
 */
@Configuration(proxyBeanMethods = false)
class DatabaseConfiguration {

    @Bean
    DataSource dataSource(DashboardProperties properties) {
        Path dir = Path.of(properties.dataDir()).toAbsolutePath();
        try {
            Files.createDirectories(dir);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot create the data folder " + dir, ex);
        }
        HikariDataSource dataSource = DataSourceBuilder.create().type(HikariDataSource.class)
                .url("jdbc:h2:file:" + dir.resolve("analytics") + ";WRITE_DELAY=0")
                .username("sa").password("").build();
        dataSource.setMaximumPoolSize(4);
        return dataSource;
    }
}
