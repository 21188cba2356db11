package dev.lunchrush.orderservice.idempotency;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

import dev.lunchrush.orderservice.OrderServiceProperties;
import dev.lunchrush.support.H2Files;

/**
 * The embedded H2 database in the data folder (idempotency keys, the notification log).
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class IdempotencyConfiguration {

    @Bean
    DataSource dataSource(OrderServiceProperties properties) {
        // a small page cache: H2's default (16 MB) fills with the SMS log and the idempotency
        // store in act 4 and would read as heap growth where the lesson promises a flat heap
        HikariDataSource dataSource = H2Files.dataSource(properties.dataDir(), "order-service",
                ";DB_CLOSE_ON_EXIT=FALSE;CACHE_SIZE=2048", 8);
        dataSource.setPoolName("order-service-h2");
        return dataSource;
    }
}
