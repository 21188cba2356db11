package dev.lunchrush.controlroom;

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

/**
 * The whole control room on a random port of 127.0.0.1, against a {@link StubOrderService} (a bean, which a test may
 * autowire) with every other service down, and the admin's and the viewer's passwords {@link #ADMIN_PASSWORD} and
 * {@link #VIEWER_PASSWORD}. The test classes so annotated share one application (the test context cache): each leaves
 * no rush of the room's running when it ends.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lunchrush.security.admin-password=" + StubbedControlRoomTest.ADMIN_PASSWORD,
    "lunchrush.security.viewer-password=" + StubbedControlRoomTest.VIEWER_PASSWORD, "server.address=127.0.0.1"})
@Import(StubbedControlRoomTest.Stack.class)
@interface StubbedControlRoomTest {

    String ADMIN_PASSWORD = "api-admin-secret";
    String VIEWER_PASSWORD = "api-viewer-secret";

    /** The stub, started with the application and stopped with it, and the stack's URLs made of it. */
    @TestConfiguration(proxyBeanMethods = false)
    class Stack {

        @Bean(destroyMethod = "stop")
        StubOrderService stubOrderService() {
            return new StubOrderService();
        }

        @Bean
        DynamicPropertyRegistrar stubbedStack(StubOrderService orderService) {
            return orderService::register;
        }
    }
}
