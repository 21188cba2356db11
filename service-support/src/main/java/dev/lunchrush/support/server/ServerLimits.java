package dev.lunchrush.support.server;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What Reactor Netty needs said beyond Spring Boot's {@code server.netty.*} ({@code lunchrush.server.*}, set in
 * {@code lunchrush-server-limits.properties}).
 *
 * @param requestTimeout the longest a whole request may take to arrive once its headers came (408 after it, and the
 *        connection closed): a body promised and not sent and a body trickled are let go alike. There is no separate
 *        read timeout: Reactor Netty (1.3.6) cancels a request's timeout task only when its body has come, so with
 *        two timers a connection closed by the first stayed on the heap, exchange and error included, until the second
 *        fired; under 4,000 held connections those dead ones were what ended the heap
 * @param maxConnections connections open at once; one more is closed as soon as it is accepted
 */
@ConfigurationProperties("lunchrush.server")
public record ServerLimits(@DefaultValue("10s") Duration requestTimeout,
        @DefaultValue("10000") int maxConnections) {
}
