package dev.lunchrush.orderservice.idempotency;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

import dev.lunchrush.orderservice.OrderServiceProperties;

/**
 * The embedded H2 database in the data folder (idempotency keys, the notification log). Built here
 * rather than from {@code spring.datasource.url} because H2 wants an absolute path and the data
 * folder is relative by default.
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class IdempotencyConfiguration {

    @Bean
    DataSource dataSource(OrderServiceProperties properties) {
        Path dir = properties.dataDir().toAbsolutePath();
        try {
            Files.createDirectories(dir);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot create the data folder " + dir, ex);
        }
        HikariDataSource dataSource = DataSourceBuilder.create()
                .type(HikariDataSource.class)
                .driverClassName("org.h2.Driver")
                // a small page cache: H2's default (16 MB) fills with the SMS log and the idempotency
                // store in act 4 and would read as heap growth where the lesson promises a flat heap
                .url("jdbc:h2:file:" + dir.resolve("order-service") + ";DB_CLOSE_ON_EXIT=FALSE;CACHE_SIZE=2048")
                .username("sa")
                .password("")
                .build();
        dataSource.setPoolName("order-service-h2");
        dataSource.setMaximumPoolSize(8);
        return dataSource;
    }
}
