package dev.lunchrush.support.tracing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import brave.handler.MutableSpan;
import zipkin2.reporter.BytesEncoder;
import zipkin2.reporter.BytesMessageSender;
import zipkin2.reporter.brave.AsyncZipkinSpanHandler;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.tracing.autoconfigure.ConditionalOnEnabledTracingExport;
import org.springframework.context.annotation.Bean;

/**
 * How the spans reach Zipkin: in batches sent every {@link #REPORT_INTERVAL} by {@link SpanBatches}, where Spring
 * Boot's reporter sends every second from a thread that wakes for each span. Each send is an HTTP request whose cost
 * does not shrink with its spans: a reader with a few dozen traced orders a second paid more for the sends and the
 * wake-ups than for the spans. A span shows in Zipkin up to that much later; a service that stops sends what it holds.
 */
@AutoConfiguration(afterName = "org.springframework.boot.zipkin.autoconfigure.ZipkinAutoConfiguration",
        beforeName = "org.springframework.boot.micrometer.tracing.brave.autoconfigure.zipkin.ZipkinWithBraveTracingAutoConfiguration")
@ConditionalOnClass(AsyncZipkinSpanHandler.class)
@ConditionalOnEnabledTracingExport("zipkin")
public class SpanReporting {

    static final Duration REPORT_INTERVAL = Duration.ofSeconds(5);

    @Bean
    SpanBatches.Counts spanCounts() {
        return new SpanBatches.Counts();
    }

    /** Without a thread of its own ({@code messageTimeout} 0): {@link SpanBatches} sends what it holds. */
    @Bean
    @ConditionalOnBean(BytesMessageSender.class)
    @ConditionalOnMissingBean
    AsyncZipkinSpanHandler batchedZipkinSpanHandler(BytesMessageSender sender, BytesEncoder<MutableSpan> encoder,
            SpanBatches.Counts counts) {
        return AsyncZipkinSpanHandler.newBuilder(sender).messageTimeout(0, TimeUnit.MILLISECONDS).metrics(counts)
                .build(encoder);
    }

    /** Depends on the handler, so it is stopped before the handler closes (which drops what it still holds). */
    @Bean
    @ConditionalOnBean(name = "batchedZipkinSpanHandler")
    SpanBatches spanBatches(AsyncZipkinSpanHandler batchedZipkinSpanHandler, SpanBatches.Counts counts) {
        return new SpanBatches(batchedZipkinSpanHandler, counts, REPORT_INTERVAL);
    }
}
