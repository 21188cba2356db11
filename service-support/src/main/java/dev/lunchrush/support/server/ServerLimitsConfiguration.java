package dev.lunchrush.support.server;

import java.util.concurrent.atomic.AtomicInteger;

import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.tomcat.TomcatProtocolHandlerCustomizer;
import org.springframework.boot.tomcat.TomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.PropertySource;
import org.springframework.core.Ordered;

/**
 * The HTTP limits of every service ({@code lunchrush-server-limits.properties}): Spring Boot applies the
 * {@code server.*} ones to Tomcat and Reactor Netty; for Reactor Netty, this adds what Boot has no property for:
 * the request timeout of a request under way (a body promised and not sent, or trickled, gets a 408) and a bound on
 * open connections; {@link ReadAfterEachResponse}, a workaround for a Reactor Netty bug; and {@link DroppedErrors}.
 * For Tomcat, {@link UnreadBodyValve} and the header deadline ({@link HeaderDeadlineProtocol}), which Reactor Netty's
 * idle timeout is already. An auto-configuration, so that every service that has this module gets them;
 * the file's properties come after the service's own ({@code @PropertySource}), which may say otherwise.
 */
@AutoConfiguration
@PropertySource("classpath:lunchrush-server-limits.properties")
@EnableConfigurationProperties(ServerLimits.class)
public class ServerLimitsConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HttpServer.class)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    static class NettyLimits {

        private static final Logger log = LoggerFactory.getLogger(NettyLimits.class);

        /** Errors of connections closed or timed out under an answered request logged as such ({@link DroppedErrors}). */
        @Bean
        static DroppedErrors lunchRushDroppedErrors() {
            return new DroppedErrors();
        }

        @Bean
        NettyServerCustomizer lunchRushServerLimits(ServerLimits limits) {
            AtomicInteger open = new AtomicInteger();
            return server -> server
                    .requestTimeout(limits.requestTimeout())
                    .doOnChannelInit((observer, channel, remoteAddress) -> {
                        if (open.incrementAndGet() > limits.maxConnections()) {
                            log.warn("{} connections open already: one from {} closed", limits.maxConnections(), remoteAddress);
                            channel.close();
                        }
                        channel.closeFuture().addListener(closed -> open.decrementAndGet());
                        if (channel.pipeline().get(NettyPipeline.HttpTrafficHandler) != null
                                && channel.pipeline().get(ReadAfterEachResponse.NAME) == null) {
                            channel.pipeline().addBefore(NettyPipeline.HttpTrafficHandler, ReadAfterEachResponse.NAME,
                                    new ReadAfterEachResponse());
                        }
                    });
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.apache.catalina.Valve")
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    static class TomcatLimits {

        /** A body nobody read closes its connection ({@link UnreadBodyValve}): no worker waits for it. */
        @Bean
        WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> lunchRushUnreadBodies() {
            return factory -> factory.addEngineValves(new UnreadBodyValve());
        }

        /**
         * Tomcat's own error reports as problem documents ({@link ProblemReportValve}), in the place of the one Spring
         * Boot adds to the host: this customizer comes after Boot's, so its context customizer finds that one there.
         */
        @Bean
        WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> lunchRushProblemReports() {
            return new ProblemReports();
        }

        /** Headers whole within {@link ServerLimits#headerTimeout()} ({@link HeaderDeadlineProtocol}). */
        @Bean
        WebServerFactoryCustomizer<TomcatWebServerFactory> lunchRushHeaderDeadline(ServerLimits limits) {
            TomcatProtocolHandlerCustomizer<HeaderDeadlineProtocol> deadline =
                    protocol -> protocol.setHeaderTimeoutMillis(limits.headerTimeout().toMillis());
            return factory -> {
                factory.setProtocol(HeaderDeadlineProtocol.class.getName());
                factory.addProtocolHandlerCustomizers(deadline);
            };
        }
    }

    /** Replaces the host's error report valves with a {@link ProblemReportValve}; last of the customizers. */
    static final class ProblemReports implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {

        @Override
        public void customize(ConfigurableTomcatWebServerFactory factory) {
            factory.addContextCustomizers(context -> {
                if (context.getParent() instanceof StandardHost host) {
                    Pipeline pipeline = host.getPipeline();
                    for (Valve valve : pipeline.getValves()) {
                        if (valve instanceof ErrorReportValve) {
                            pipeline.removeValve(valve);
                        }
                    }
                    pipeline.addValve(new ProblemReportValve());
                    // else the host, starting, adds an ErrorReportValve of its own: it looks for that class by name
                    host.setErrorReportValveClass(ProblemReportValve.class.getName());
                }
            });
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }
    }
}
