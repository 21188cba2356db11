package dev.lunchrush.orderservice.intake;

import java.util.Set;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.micrometer.observation.ObservationPredicate;
import reactor.core.publisher.Mono;
import org.springdoc.core.annotations.RouterOperation;
import org.springdoc.core.annotations.RouterOperations;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.reactive.function.server.support.RouterFunctionMapping;
import org.springframework.web.server.MethodNotAllowedException;

import dev.lunchrush.events.OrderAccepted;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;
import dev.lunchrush.support.problems.ProblemType;

/**
 * {@code POST /orders}: Spring WebFlux's functional routing to {@link OrderEndpoint}. Its OpenAPI description is
 * here, where the route is ({@code @RouterOperation}), since a handler function has no annotated method. Any other
 * method on {@code /orders} is answered {@code 405} with {@code Allow: POST} ({@link #onlyPost}), as an annotated
 * mapping answers a method it does not take, rather than falling through to the static resources' 404.
 *
 * <p>An order is not observed as an HTTP request ({@link #ordersAreNotHttpRequests}): {@code order_intake_seconds}
 * (OrderIntake) times every order by act and outcome, and the server's observation of each (its context, tags,
 * a timer with its histogram) was a cost per order that told nothing more.
 */
@Configuration(proxyBeanMethods = false)
class OrderRoutes {

    private static final String ORDER_EXAMPLE = """
            {"kitchenId": "k3", "customerId": "c-1042",
             "items": [{"dish": "pad-thai", "quantity": 2}, {"dish": "spring-rolls", "quantity": 1}],
             "deliveryAddress": "12 Mill Lane", "notes": "no peanuts"}""";

    @Bean
    @RouterOperations(@RouterOperation(path = OrderEndpoint.PATH, method = RequestMethod.POST,
            consumes = MediaType.APPLICATION_JSON_VALUE,
            operation = @Operation(operationId = "place", summary = "Place an order", tags = "orders",
                    parameters = @Parameter(in = ParameterIn.HEADER, name = OrderEndpoint.IDEMPOTENCY_KEY,
                            description = "Makes a retry return the first answer instead of placing a second "
                                    + "order (kept lunchrush.store.idempotency-retention, across restarts)", example = "c-1042-lunch-1"),
                    description = "201 only once the current act's output holds the order durably (a RabbitMQ publisher confirm, "
                            + "a Kafka ack with acks=all, or a place in the feed). Bad input is refused with the field to blame and "
                            + "nothing is written. Dishes and kitchens: GET /menu.",
                    requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                            mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = OrderRequest.class),
                            examples = @ExampleObject(name = "order", value = ORDER_EXAMPLE))),
                    responses = {
                        @ApiResponse(responseCode = "201", description = "Accepted and durably written (or the first answer to this Idempotency-Key)",
                                headers = {
                                    @Header(name = "Location", description = "/orders/{orderId}", schema = @Schema(type = "string")),
                                    @Header(name = "Idempotent-Replayed", description = "true when this is the stored answer of an earlier request with the same Idempotency-Key",
                                            schema = @Schema(type = "string"))},
                                content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = OrderAccepted.class))),
                        @ApiResponse(responseCode = "400", description = "Not an order: malformed JSON, an unknown kitchen or dish, a quantity out of range; errors names each field. "
                                + "Type " + ProblemType.BASE + "invalid-input",
                                content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                        @ApiResponse(responseCode = "413", description = "Body over lunchrush.max-order-body (64 KB). Type " + ProblemType.BASE + "body-too-large",
                                content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                        @ApiResponse(responseCode = "415", description = "Content-Type is not application/json. Type " + ProblemType.BASE + "unsupported-media-type",
                                content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                        @ApiResponse(responseCode = "409", description = "Outcome unknown for good: the first request with this "
                                + "Idempotency-Key went to RabbitMQ, whose answer this service never got (a restart); it may be placed "
                                + "or not, and is not placed again under this key (the detail names the order). Type " + ProblemType.BASE + "outcome-lost",
                                content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                        @ApiResponse(responseCode = "422", description = "This Idempotency-Key was used for another order. Type " + ProblemType.BASE + "idempotency-key-reused",
                                content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                        @ApiResponse(responseCode = "429", description = "Act 3, strategy throttle: the feed is full; retry after Retry-After with the same Idempotency-Key. "
                                + "Type " + ProblemType.BASE + "feed-full",
                                headers = @Header(name = "Retry-After", description = "seconds to wait (lunchrush.feed.retry-after)", schema = @Schema(type = "integer")),
                                content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                        @ApiResponse(responseCode = "503", description = "The act's output did not take the order within lunchrush.output-timeout: "
                                + "never a 201, and the type says which of three it is. Type " + ProblemType.BASE + "not-accepted: nothing "
                                + "was written (a broker down or blocking publishers, the feed full under block). Type " + ProblemType.BASE
                                + "outcome-unknown: the broker may still take it; a retry under the same Idempotency-Key gets the real "
                                + "outcome instead of a second order. Type " + ProblemType.BASE + "still-running: the first request with "
                                + "this Idempotency-Key is still under way; retry later under the same key",
                                content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})))
    RouterFunction<ServerResponse> placeOrderRoute(OrderEndpoint endpoint) {
        return RouterFunctions.route()
                .POST(OrderEndpoint.PATH, endpoint::place)
                .route(RequestPredicates.path(OrderEndpoint.PATH), OrderRoutes::onlyPost)
                .build();
    }

    /** {@code /orders} with a method other than {@code POST}: the problem handler's 405, {@code Allow: POST}. */
    static Mono<ServerResponse> onlyPost(ServerRequest request) {
        return Mono.error(new MethodNotAllowedException(request.method(), Set.of(HttpMethod.POST)));
    }

    /**
     * The routes are asked first, before the actuator's mappings (order -100) and the annotated controllers': a
     * request is matched against the handler mappings in their order until one has a handler, and {@code POST
     * /orders} went through the actuator's lookup of every endpoint before it reached its route. The route's
     * predicate (method and exact path) is all any other request pays for coming first.
     */
    @Bean
    static BeanPostProcessor routesBeforeOtherMappings() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessBeforeInitialization(Object bean, String beanName) {
                if (bean instanceof RouterFunctionMapping mapping) {
                    mapping.setOrder(Ordered.HIGHEST_PRECEDENCE);
                }
                return bean;
            }
        };
    }

    @Bean
    ObservationPredicate ordersAreNotHttpRequests() {
        return (name, context) -> !(context instanceof ServerRequestObservationContext request
                && HttpMethod.POST.equals(request.getCarrier().getMethod())
                && OrderEndpoint.PATH.equals(request.getCarrier().getPath().value()));
    }
}
