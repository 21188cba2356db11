package dev.lunchrush.support.problems;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every servlet service's problem handler, {@link ServletProblems}: it comes before Spring MVC's auto-configuration,
 * whose own handler ({@code spring.mvc.problemdetails.enabled}) is then left out. A service with a
 * {@link ResponseEntityExceptionHandler} of its own keeps that one.
 */
@AutoConfiguration(beforeName = "org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class ProblemHandling {

    @Bean
    @ConditionalOnMissingBean(ResponseEntityExceptionHandler.class)
    ServletProblems lunchRushProblems() {
        return new ServletProblems();
    }
}
