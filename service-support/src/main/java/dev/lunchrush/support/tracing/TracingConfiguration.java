package dev.lunchrush.support.tracing;

import io.micrometer.observation.ObservationPredicate;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.autoconfigure.NoopTracerAutoConfiguration;
import org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.PropertySource;

/**
 * Every service's tracing settings ({@code lunchrush-tracing.properties}: the sampling, Zipkin's address, the
 * observation of RabbitMQ's template), after the service's own, and the {@link OrderTraces} of its readers and its
 * producer. Spring Boot makes the tracer (Brave) and reports to Zipkin; with
 * {@code management.tracing.export.enabled=false} the tracer is a no-op.
 */
@AutoConfiguration(after = {BraveAutoConfiguration.class, MicrometerTracingAutoConfiguration.class,
        NoopTracerAutoConfiguration.class})
@PropertySource("classpath:lunchrush-tracing.properties")
public class TracingConfiguration {

    /**
     * Health probes and Prometheus's scrapes are not observed: a trace of each would bury the orders' in Zipkin, and
     * the hostile-clients fault probes health several times a second.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    static class ServletActuator {

        @Bean
        ObservationPredicate actuatorIsNotObserved() {
            return (name, context) -> !(context instanceof org.springframework.http.server.observation.ServerRequestObservationContext request
                    && actuator(request.getCarrier().getRequestURI()));
        }
    }

    /** As {@link ServletActuator}, for the order service's Reactor Netty. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    static class ReactiveActuator {

        @Bean
        ObservationPredicate actuatorIsNotObserved() {
            return (name, context) -> !(context instanceof org.springframework.http.server.reactive.observation.ServerRequestObservationContext request
                    && actuator(request.getCarrier().getPath().value()));
        }
    }

    static boolean actuator(String path) {
        return path.equals("/actuator") || path.startsWith("/actuator/");
    }

    @Bean
    OrderTraces orderTraces(ObjectProvider<Tracer> tracer, ObjectProvider<Propagator> propagator) {
        return new OrderTraces(tracer.getIfAvailable(() -> Tracer.NOOP), propagator.getIfAvailable(() -> Propagator.NOOP));
    }
}
