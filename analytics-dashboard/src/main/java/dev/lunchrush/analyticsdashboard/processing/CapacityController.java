package dev.lunchrush.analyticsdashboard.processing;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;

/** {@code PUT /admin/capacity}: the job's capacity, for speeded-up rushes. Admin only. */
@RestController
class CapacityController {

    private static final Logger log = LoggerFactory.getLogger(CapacityController.class);

    private final Capacity capacity;

    CapacityController(Capacity capacity) {
        this.capacity = capacity;
    }

    /** The body, its constraints declared here once: checked by the controller ({@code @Valid}), shown by the OpenAPI document. */
    record CapacityChange(
            @NotNull(message = "is required") @Min(value = 1, message = "must be at least {value}")
            @Max(value = 1_000_000, message = "must be at most {value}") Integer eventsPerSecond) {
    }

    @Operation(summary = "Set the job's processing capacity (events per second, all sources together)",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = CapacityChange.class),
                    examples = @ExampleObject(name = "capacity", value = "{\"eventsPerSecond\": 250}"))),
            responses = {
                @ApiResponse(responseCode = "200", description = "The capacity now"),
                @ApiResponse(responseCode = "400", description = "eventsPerSecond missing or not within 1..1,000,000, named in errors[].field", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "415", description = "Content-Type is not application/json", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @PutMapping(path = "/admin/capacity", consumes = MediaType.APPLICATION_JSON_VALUE)
    CapacityChange change(@Valid @RequestBody CapacityChange change) {
        capacity.change(change.eventsPerSecond());
        log.info("capacity set to {} events/s", change.eventsPerSecond());
        return new CapacityChange(capacity.perSecond());
    }
}
