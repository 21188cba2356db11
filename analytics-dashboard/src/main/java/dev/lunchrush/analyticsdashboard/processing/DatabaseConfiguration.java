package dev.lunchrush.analyticsdashboard.processing;

import java.nio.file.Path;

import javax.sql.DataSource;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lunchrush.analyticsdashboard.DashboardProperties;
import dev.lunchrush.support.H2Files;

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
        return H2Files.dataSource(Path.of(properties.dataDir()), "analytics", ";WRITE_DELAY=0", 4);
    }
}
