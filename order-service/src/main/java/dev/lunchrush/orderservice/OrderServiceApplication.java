package dev.lunchrush.orderservice;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Import;

import dev.lunchrush.support.AdminSecurityConfiguration;
import dev.lunchrush.support.api.ApiDocumentation;

@SpringBootApplication
@ConfigurationPropertiesScan
@Import({AdminSecurityConfiguration.class, ApiDocumentation.class})
public class OrderServiceApplication {

    /** Reactor Netty's event loops, unless set otherwise: see {@link #main}. */
    static final String EVENT_LOOPS = "reactor.netty.ioWorkerCount";

    public static void main(String[] args) {
        // One event loop: every order's answer is written by it, and on two cores shared with the brokers and
        // the readers, one loop that finds several connections ready at each wake-up costs less per order than
        // four (Reactor Netty's default) that each wake up for one
        if (System.getProperty(EVENT_LOOPS) == null) {
            System.setProperty(EVENT_LOOPS, "1");
        }
        SpringApplication.run(OrderServiceApplication.class, args);
    }
}
