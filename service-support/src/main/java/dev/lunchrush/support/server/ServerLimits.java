package dev.lunchrush.support.server;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What Reactor Netty needs said beyond Spring Boot's {@code server.netty.*} ({@code lunchrush.server.*}, set in
 * {@code lunchrush-server-limits.properties}).
 *
 * @param readTimeout the longest wait for the next bytes of a request once its headers came (408 after it)
 * @param requestTimeout the longest a whole request may take to arrive once its headers came (408 after it)
 * @param maxConnections connections open at once; one more is closed as soon as it is accepted
 */
@ConfigurationProperties("lunchrush.server")
public record ServerLimits(@DefaultValue("10s") Duration readTimeout, @DefaultValue("30s") Duration requestTimeout,
        @DefaultValue("10000") int maxConnections) {
}
