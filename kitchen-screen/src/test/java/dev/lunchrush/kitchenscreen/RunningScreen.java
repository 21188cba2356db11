package dev.lunchrush.kitchenscreen;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.lunchrush.testing.ReaderInput;
import dev.lunchrush.testing.ServiceTestSetup;

/**
 * The one running kitchen screen that the whole-application tests share: a test class that implements this has the
 * same configuration as every other, so Spring's test context cache hands them all one application rather than
 * starting (and pausing, and resuming) one for each. Never the order service of someone else's run: nothing answers
 * on port 1. An order missing from a run is listed after 500 ms.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lunchrush.order-service.url=http://127.0.0.1:1",
    "lunchrush.screen.missing-grace=500ms"})
@Import(ReaderInput.class)
public interface RunningScreen {

    @DynamicPropertySource
    static void brokers(DynamicPropertyRegistry registry) {
        ServiceTestSetup.register(registry, "kitchen-screen-test");
    }
}
