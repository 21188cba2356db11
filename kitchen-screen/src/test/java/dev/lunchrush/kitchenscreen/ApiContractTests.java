package dev.lunchrush.kitchenscreen;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.lunchrush.testing.ServiceApiContract;
import dev.lunchrush.testing.ServiceTestSetup;

/** The kitchen screen's OpenAPI document against the running service, both ways ({@link ServiceApiContract}). */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {"lunchrush.order-service.url=http://127.0.0.1:1"})
class ApiContractTests extends ServiceApiContract {

    @DynamicPropertySource
    static void brokers(DynamicPropertyRegistry registry) {
        ServiceTestSetup.register(registry, "kitchen-screen-contract");
    }
}
