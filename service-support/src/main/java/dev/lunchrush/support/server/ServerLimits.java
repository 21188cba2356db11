package dev.lunchrush.support.server;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What the servers need said beyond Spring Boot's {@code server.*} ({@code lunchrush.server.*}, set in
 * {@code lunchrush-server-limits.properties}).
 *
 * @param headerTimeout every server: the longest a request's line and headers may take to arrive, however often
 *        their bytes come, else the connection is closed. Tomcat counts from the request's first byte
 *        ({@link HeaderDeadlineProtocol}); Reactor Netty's idle timeout is set to it in the properties (its idle timer
 *        sits behind the HTTP decoder, so only a whole request's headers restart it) and counts from the connection's
 *        opening or its last answer
 * @param requestTimeout Reactor Netty: the longest a whole request may take to arrive once its headers came (408
 *        after it, and the connection closed): a body promised and not sent and a body trickled are let go alike.
 *        There is no separate read timeout: Reactor Netty (1.3.6) cancels a request's timeout task only when its body
 *        has come, so with two timers a connection closed by the first stayed on the heap, exchange and error
 *        included, until the second fired; under 4,000 held connections those dead ones were what ended the heap
 * @param maxConnections Reactor Netty: connections open at once; one more is closed as soon as it is accepted
 * @param pageStreams the servlet services: live pages (server-sent event streams) open at once; one more is refused
 *        with a 503 ({@code PageStreams})
 * @param pageStreamBuffer the servlet services: events waiting for one live page; a page with this many waiting (it
 *        does not read) is dropped, and the others are not kept waiting by it ({@code PageStreams})
 */
@ConfigurationProperties("lunchrush.server")
public record ServerLimits(@DefaultValue("20s") Duration headerTimeout, @DefaultValue("10s") Duration requestTimeout,
        @DefaultValue("10000") int maxConnections, @DefaultValue("100") int pageStreams,
        @DefaultValue("8") int pageStreamBuffer) {
}
