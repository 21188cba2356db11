package dev.lunchrush.reportreplayer;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistrar;

import dev.lunchrush.testing.ServiceTestSetup;

/**
 * The whole report replayer on a random port, against the tests' brokers ({@link ServiceTestSetup}: a data folder of
 * its own, new and empty), Kafka's own logging at WARN. The test classes so annotated share one application (the test
 * context cache): what each asserts of the replays, the reports and the groups is what its own requests made.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"logging.level.kafka=WARN", "logging.level.org.apache.kafka=WARN", "logging.level.state.change.logger=WARN"})
@Import(ReplayerOnBrokersTest.Brokers.class)
public @interface ReplayerOnBrokersTest {

    /** The brokers and the data folder, registered before the application's beans are made. */
    @TestConfiguration(proxyBeanMethods = false)
    class Brokers {

        @Bean
        DynamicPropertyRegistrar brokersAndDataDir() {
            return registry -> ServiceTestSetup.register(registry, "report-replayer-test");
        }
    }
}
