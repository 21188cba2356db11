package dev.lunchrush.reportreplayer;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.lunchrush.testing.ServiceApiContract;
import dev.lunchrush.testing.ServiceTestSetup;

/** The report replayer's OpenAPI document against the running service, both ways ({@link ServiceApiContract}). */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {"logging.level.org.apache.kafka=WARN"})
class ApiContractTests extends ServiceApiContract {

    @DynamicPropertySource
    static void brokers(DynamicPropertyRegistry registry) {
        ServiceTestSetup.register(registry, "report-replayer-contract");
    }
}
