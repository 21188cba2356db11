package dev.lunchrush.support.tracing;

import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.exporter.SpanExportingPredicate;
import io.micrometer.tracing.propagation.Propagator;
import io.prometheus.metrics.tracer.common.SpanContext;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.PropertySource;

/**
 * Every service's tracing settings ({@code lunchrush-tracing.properties}: the sampling, Zipkin's address, the
 * observation of RabbitMQ's template), after the service's own, and the {@link OrderTraces} of its readers and its
 * producer. Spring Boot makes the tracer (Brave) and reports to Zipkin; with
 * {@code management.tracing.export.enabled=false} the tracer is a no-op.
 */
@AutoConfiguration(beforeName = "org.springframework.boot.micrometer.tracing.autoconfigure.prometheus.PrometheusExemplarsAutoConfiguration")
@PropertySource("classpath:lunchrush-tracing.properties")
public class TracingConfiguration {

    /**
     * The spans of health probes and Prometheus's scrapes are not exported: a trace of each would bury the orders' in
     * Zipkin, and the hostile-clients fault probes health several times a second. They are still observed, so that
     * {@code http_server_requests} counts them as before.
     */
    @Bean
    SpanExportingPredicate actuatorSpansAreNotExported() {
        return span -> !actuator(span.getName());
    }

    static boolean actuator(@Nullable String spanName) {
        return spanName != null && (spanName.endsWith(" /actuator") || spanName.contains(" /actuator/"));
    }

    /**
     * No exemplars in the Prometheus scrape: with a tracer, Spring Boot would attach the current trace to samples, and
     * Prometheus 2 (Debian's, which {@code ./demo up} runs) refuses a whole scrape that has an exemplar on a summary's
     * count ("does not support exemplars"), so every service would be down to it. Made before Boot's own, which then
     * stands back.
     */
    @Bean
    SpanContext noPrometheusExemplars() {
        return new SpanContext() {
            @Override
            public @Nullable String getCurrentTraceId() {
                return null;
            }

            @Override
            public @Nullable String getCurrentSpanId() {
                return null;
            }

            @Override
            public boolean isCurrentSpanSampled() {
                return false;
            }

            @Override
            public void markCurrentSpanAsExemplar() {
            }
        };
    }

    @Bean
    OrderTraces orderTraces(ObjectProvider<Tracer> tracer, ObjectProvider<Propagator> propagator) {
        return new OrderTraces(tracer.getIfAvailable(() -> Tracer.NOOP), propagator.getIfAvailable(() -> Propagator.NOOP));
    }
}
