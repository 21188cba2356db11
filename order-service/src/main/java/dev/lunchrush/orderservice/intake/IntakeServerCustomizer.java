package dev.lunchrush.orderservice.intake;

import io.netty.channel.ChannelPipeline;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.stereotype.Component;

import dev.lunchrush.orderservice.OrderServiceProperties;
import dev.lunchrush.orderservice.problems.ProblemDocuments;

/**
 * Puts an {@link OrderIntakeHandler} on every HTTP/1.1 connection of the server, right after Netty's HTTP
 * codec and before Reactor Netty hands requests to Spring WebFlux; {@code lunchrush.intake.on-connection=false}
 * leaves every order to the WebFlux controller (to compare the two; the handler still keeps the connection
 * reading, see {@link OrderIntakeHandler#write}).
 */
@Component
class IntakeServerCustomizer implements NettyServerCustomizer {

    static final String HANDLER = "lunchrush.orderIntake";

    private final OrderPlacement placement;
    private final ProblemDocuments problems;
    private final int maxBody;
    private final boolean enabled;

    IntakeServerCustomizer(OrderPlacement placement, ProblemDocuments problems, OrderServiceProperties properties,
            @Value("${lunchrush.intake.on-connection:true}") boolean enabled) {
        this.placement = placement;
        this.problems = problems;
        this.maxBody = (int) Math.min(Integer.MAX_VALUE, properties.maxOrderBody().toBytes());
        this.enabled = enabled;
    }

    @Override
    public HttpServer apply(HttpServer server) {
        return server.doOnChannelInit((observer, channel, remoteAddress) -> {
            ChannelPipeline pipeline = channel.pipeline();
            // HTTP/1.1 connections only; an HTTP/2 stream goes to WebFlux as it is
            if (pipeline.get(NettyPipeline.HttpTrafficHandler) != null && pipeline.get(HANDLER) == null) {
                pipeline.addBefore(NettyPipeline.HttpTrafficHandler, HANDLER,
                        new OrderIntakeHandler(placement, problems, maxBody, enabled));
            }
        });
    }
}
