package dev.lunchrush.support.tracing;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import org.junit.jupiter.api.Test;
import zipkin2.reporter.BytesMessageSender;
import zipkin2.reporter.Encoding;
import zipkin2.reporter.brave.AsyncZipkinSpanHandler;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.tracing.brave.autoconfigure.zipkin.ZipkinWithBraveTracingAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.zipkin.autoconfigure.ZipkinAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/** The spans' reporter is SpanReporting's, in place of Spring Boot's, and only where spans go to Zipkin. */
class SpanReportingTests {

    private final ApplicationContextRunner contexts = new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(
            ZipkinAutoConfiguration.class, SpanReporting.class, ZipkinWithBraveTracingAutoConfiguration.class));

    @Test
    void theSpansAreReportedByTheBatchingHandlerAlone() {
        contexts.run(context -> {
            assertThat(context).hasSingleBean(AsyncZipkinSpanHandler.class);
            assertThat(context).hasBean("batchedZipkinSpanHandler").hasSingleBean(SpanBatches.class);
        });
    }

    @Test
    void withTheExportOffThereIsNoReporter() {
        contexts.withPropertyValues("management.tracing.export.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(AsyncZipkinSpanHandler.class));
    }

    @Test
    void whatTheReporterHoldsIsSentWhenTheServiceStops() {
        RecordingSender sender = new RecordingSender();
        contexts.withBean(BytesMessageSender.class, () -> sender).run(context -> {
            TraceContext trace = TraceContext.newBuilder().traceId(1).spanId(2).sampled(true).build();
            MutableSpan span = new MutableSpan(trace, null);
            span.name("place order");
            span.startTimestamp(1_000_000);
            span.finishTimestamp(1_001_000);
            context.getBean(AsyncZipkinSpanHandler.class).end(trace, span, SpanHandler.Cause.FINISHED);
            // within the batch's interval, nothing has been sent yet
            assertThat(sender.spans).isEmpty();
            context.close();
            assertThat(sender.spans).hasSize(1);
            assertThat(new String(sender.spans.get(0), StandardCharsets.UTF_8)).contains("place order");
        });
    }

    @Test
    void aRoundSendsWhatEndedSinceTheLastAndNothingWhenNothingDid() {
        batching((sender, handler, batches) -> {
            end(handler, 3);
            batches.send();
            assertThat(sender.spans).hasSize(3);
            assertThat(sender.messages).hasValue(1);
            batches.send();
            assertThat(sender.messages).as("no message without a span").hasValue(1);
        });
    }

    @Test
    void manySpansAreSentBeforeTheIntervalAndAFewAreNot() {
        batching((sender, handler, batches) -> {
            end(handler, 3);
            batches.tick();
            assertThat(sender.messages).as("a few spans wait for the interval").hasValue(0);
            end(handler, SpanBatches.SPANS_PER_SEND);
            batches.tick();
            assertThat(sender.spans).hasSize(SpanBatches.SPANS_PER_SEND + 3);
        });
    }

    /** What a test of the batches is given: the context's reporter and batches, sending to a recording sender. */
    private interface Batching {

        void test(RecordingSender sender, AsyncZipkinSpanHandler handler, SpanBatches batches);
    }

    private void batching(Batching test) {
        RecordingSender sender = new RecordingSender();
        contexts.withBean(BytesMessageSender.class, () -> sender).run(context -> test.test(sender,
                context.getBean(AsyncZipkinSpanHandler.class), context.getBean(SpanBatches.class)));
    }

    private static void end(AsyncZipkinSpanHandler handler, int spans) {
        for (int i = 0; i < spans; i++) {
            TraceContext trace = TraceContext.newBuilder().traceId(7).spanId(100 + i).sampled(true).build();
            MutableSpan span = new MutableSpan(trace, null);
            span.name("receive");
            handler.end(trace, span, SpanHandler.Cause.FINISHED);
        }
    }

    /** A sender that keeps what it is given. */
    static final class RecordingSender extends BytesMessageSender.Base {

        final List<byte[]> spans = new CopyOnWriteArrayList<>();
        final AtomicInteger messages = new AtomicInteger();

        RecordingSender() {
            super(Encoding.JSON);
        }

        @Override
        public int messageMaxBytes() {
            return 500_000;
        }

        @Override
        public void send(List<byte[]> encodedSpans) {
            messages.incrementAndGet();
            spans.addAll(encodedSpans);
        }

        @Override
        public void close() {
        }
    }
}
