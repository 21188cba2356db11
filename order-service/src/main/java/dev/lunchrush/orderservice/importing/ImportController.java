package dev.lunchrush.orderservice.importing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.OrderServiceProperties;
import dev.lunchrush.orderservice.idempotency.IdempotencyStore;
import dev.lunchrush.orderservice.idempotency.StoredResponse;
import dev.lunchrush.orderservice.intake.OrderEvents;
import dev.lunchrush.orderservice.intake.OrderRequestParser;
import dev.lunchrush.support.problems.FieldProblem;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.orderservice.publishing.KafkaImportPublisher;
import dev.lunchrush.orderservice.web.BlockingWork;
import dev.lunchrush.orderservice.web.JsonBodies;
import dev.lunchrush.orderservice.web.RequestBodies;
import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;
import dev.lunchrush.support.problems.ProblemType;

/**
 * {@code POST /admin/orders/import}: past orders into the log with their real time, for the
 * accountant's replay. Every order is validated like {@code POST /orders}, plus a placedAt in the
 * past and within the topic's retention (an older record would be deleted by the broker at once).
 * All or nothing: one bad order and none is written, and a valid batch is one Kafka transaction,
 * in the log entirely or not at all ({@link KafkaImportPublisher}). With an {@code Idempotency-Key}
 * the batch is written once: the same key and body again get the first answer (with
 * {@code Idempotent-Replayed: true}) and write nothing, also when the first attempt's commit went
 * unanswered (its 503 said the outcome was unknown; the retry learns it from the log); the same key with
 * another body gets 422; import keys are kept as long as the log keeps the orders. The orders always go
 * to the Kafka topic, whatever the act.
 */
@RestController
class ImportController {

    private static final Set<String> FIELDS = Set.of("placedAt", "kitchenId", "customerId", "items", "deliveryAddress",
            "notes");

    private final OrderRequestParser parser;
    private final KafkaImportPublisher kafka;
    private final IdempotencyStore idempotency;
    private final JsonMapper json;
    private final OrderServiceProperties properties;
    private final Counter imported;
    private final Clock clock;
    private final BlockingWork blocking;

    ImportController(OrderRequestParser parser, KafkaImportPublisher kafka, IdempotencyStore idempotency,
            JsonMapper json, OrderServiceProperties properties, BlockingWork blocking, MeterRegistry registry) {
        this.parser = parser;
        this.kafka = kafka;
        this.idempotency = idempotency;
        this.json = json;
        this.properties = properties;
        this.imported = Counter.builder("orders.imported").description("past orders written to the log by the import")
                .register(registry);
        this.clock = Clock.systemUTC();
        this.blocking = blocking;
    }

    @Operation(summary = "Past orders into the log with their real time, all or nothing (one Kafka transaction), whatever the act",
            description = "Each order is checked as POST /orders is, plus a placedAt in the past and within the log's retention. "
                    + "At most lunchrush.max-import-orders orders per call.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = MediaType.APPLICATION_JSON_VALUE, array = @ArraySchema(schema = @Schema(implementation = ImportedOrder.class)),
                    examples = @ExampleObject(name = "orders", value = """
                            [{"placedAt": "2026-11-26T12:21:07Z", "kitchenId": "k3", "customerId": "c-1042",
                              "items": [{"dish": "pad-thai", "quantity": 2}], "deliveryAddress": "12 Mill Lane"}]"""))),
            responses = {
                @ApiResponse(responseCode = "200", description = "Written: {\"imported\": n}, or the stored answer of this Idempotency-Key",
                        headers = @Header(name = "Idempotent-Replayed", description = "true when this is the stored answer",
                                schema = @Schema(type = "string")),
                        content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE)),
                @ApiResponse(responseCode = "400", description = "Not a JSON array of valid past orders; errors names each ([i].field). Type " + ProblemType.BASE + "invalid-input", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "413", description = "Body over lunchrush.max-import-body. Type " + ProblemType.BASE + "body-too-large", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "415", description = "Content-Type is not application/json. Type " + ProblemType.BASE + "unsupported-media-type", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "422", description = "This Idempotency-Key was used for another batch. Type " + ProblemType.BASE + "idempotency-key-reused", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "503", description = "Kafka did not take the batch within lunchrush.kafka.import-timeout: "
                        + "either nothing was written (type " + ProblemType.BASE + "not-accepted) or the outcome is unknown (type "
                        + ProblemType.BASE + "outcome-unknown), or the first request with this key is still under way (type "
                        + ProblemType.BASE + "still-running); send it again under the same key, which writes it once", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @PostMapping(path = "/admin/orders/import", consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<String>> importOrders(ServerHttpRequest request,
            @Parameter(in = ParameterIn.HEADER, description = "The batch is written once: the same key and body again get the "
                    + "first answer, kept as long as the log keeps the orders", example = "backfill-2026-11-26-batch-1")
            @RequestHeader(name = "Idempotency-Key", required = false) @Nullable String idempotencyKey) {
        // up to a thousand orders to check, then a Kafka transaction to wait for: not on an event loop
        return RequestBodies.read(request, properties.maxImportBody())
                .flatMap(body -> Mono.fromFuture(blocking.supply(() -> checked(body, idempotencyKey != null))
                        .thenCompose(batch -> answer(batch, idempotencyKey))))
                .map(ImportController::response);
    }

    /**
     * The batch's events and, under an Idempotency-Key, the canonical form the key is checked against: the parsed
     * batch written out again, so that whitespace does not make it "different". Neither the body nor its tree outlives
     * this: a batch waits for its Kafka transaction holding its events only.
     */
    private Batch checked(byte[] body, boolean keyed) {
        JsonNode root = JsonBodies.readTree(body, "Invalid import");
        List<OrderEvent> events = validate(root);
        return new Batch(keyed ? json.writeValueAsBytes(root) : new byte[0], events);
    }

    private CompletableFuture<StoredResponse> answer(Batch batch, @Nullable String idempotencyKey) {
        List<OrderEvent> events = batch.events();
        if (idempotencyKey == null) {
            return blocking.supply(() -> write(events, KafkaImportPublisher.oneOffTransactionalId(), null, landed -> { }));
        }
        // every attempt under the key writes with the same transactional id, and learns from the note an earlier one
        // left before its commit whether that commit happened; the canonical form is hashed at once and not kept
        return idempotency.executeImport(idempotencyKey, batch.canonical(),
                attempt -> blocking.supply(() -> write(events, KafkaImportPublisher.transactionalId(idempotencyKey),
                        attempt.earlierNote() == null ? null : KafkaImportPublisher.Landed.decode(attempt.earlierNote()),
                        landed -> attempt.leaveNote(landed.encode()))));
    }

    private record Batch(byte[] canonical, List<OrderEvent> events) {
    }

    /** The batch written once; the answer is marked replayed when an earlier attempt, whose answer was lost, wrote it. */
    private StoredResponse write(List<OrderEvent> events, String transactionalId,
            KafkaImportPublisher.@Nullable Landed earlier, Consumer<KafkaImportPublisher.Landed> beforeCommit) {
        if (events.isEmpty()) {
            return new StoredResponse(200, null, json.writeValueAsString(Map.of("imported", 0)), false);
        }
        KafkaImportPublisher.Written written = kafka.publishOnce(transactionalId, events, earlier, beforeCommit);
        imported.increment(written.orders());
        return new StoredResponse(200, null, json.writeValueAsString(Map.of("imported", written.orders())),
                written.byEarlierAttempt());
    }

    private static ResponseEntity<String> response(StoredResponse answer) {
        ResponseEntity.BodyBuilder response = ResponseEntity.status(answer.status()).contentType(MediaType.APPLICATION_JSON);
        if (answer.replayed()) {
            response.header("Idempotent-Replayed", "true");
        }
        return response.body(answer.body());
    }

    private List<OrderEvent> validate(JsonNode root) {
        if (!root.isArray()) {
            throw ProblemException.invalid("Invalid import", List.of(new FieldProblem("", "must be a JSON array of orders")));
        }
        if (root.size() > properties.maxImportOrders()) {
            throw ProblemException.invalid("Invalid import", List.of(new FieldProblem("",
                    "has " + root.size() + " orders; at most " + properties.maxImportOrders() + " per call")));
        }
        Instant now = clock.instant();
        Instant oldest = now.minus(Duration.ofDays(Topology.ORDERS_RETENTION_DAYS));
        List<FieldProblem> errors = new ArrayList<>();
        List<OrderEvent> events = new ArrayList<>(root.size());
        for (int i = 0; i < root.size(); i++) {
            String prefix = "[" + i + "]";
            JsonNode node = root.get(i);
            OrderRequest order = parser.validate(node, prefix, FIELDS, errors);
            Instant placedAt = node.isObject() ? placedAt(node.get("placedAt"), prefix + ".placedAt", now, oldest, errors) : null;
            if (order != null && placedAt != null) {
                events.add(OrderEvents.imported(placedAt, order));
            }
        }
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("Invalid import", errors);
        }
        return events;
    }

    private static @Nullable Instant placedAt(@Nullable JsonNode value, String field, Instant now, Instant oldest,
            List<FieldProblem> errors) {
        if (value == null || value.isNull()) {
            errors.add(new FieldProblem(field, "is required (ISO-8601, e.g. 2026-11-26T12:21:07.120Z)"));
            return null;
        }
        if (!value.isString()) {
            errors.add(new FieldProblem(field, "must be an ISO-8601 string"));
            return null;
        }
        Instant placedAt;
        try {
            placedAt = OffsetDateTime.parse(value.stringValue()).toInstant();
        }
        catch (DateTimeParseException ex) {
            errors.add(new FieldProblem(field, "is not an ISO-8601 date-time with offset: '" + value.stringValue() + "'"));
            return null;
        }
        if (placedAt.isAfter(now)) {
            errors.add(new FieldProblem(field, "is in the future; only past orders can be imported"));
            return null;
        }
        if (!placedAt.isAfter(oldest)) {
            errors.add(new FieldProblem(field, "is older than the log's retention of " + Topology.ORDERS_RETENTION_DAYS
                    + " days (oldest allowed: " + oldest + ")"));
            return null;
        }
        return placedAt;
    }
}
