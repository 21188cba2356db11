package dev.lunchrush.reportreplayer.groups;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import java.util.Objects;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.events.OrderLimits;
import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;

/** {@code POST /admin/groups/{group}/reset}, like {@code kafka-consumer-groups --reset-offsets --to-datetime}. */
@RestController
class GroupResetController {

    /** Kafka's own rule for group ids is looser; this is what a group of this project looks like. */
    static final String GROUP = "[A-Za-z0-9._-]{1,249}";

    private final GroupReset reset;

    GroupResetController(GroupReset reset) {
        this.reset = reset;
    }

    @Operation(summary = "Move a consumer group's offsets to a time (dry run unless dryRun is false)",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ResetRequest.class),
                    examples = @ExampleObject(name = "dry run", value = "{\"toDatetime\": \"2026-11-26T00:00:00Z\", \"dryRun\": true}"))),
            responses = {
                @ApiResponse(responseCode = "200", description = "The targets per partition, and whether they were applied"),
                @ApiResponse(responseCode = "400", description = "toDatetime missing or not ISO-8601 with an offset, or a group id that is none: each named in errors[].field", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "409", description = "The group has active members: stop the reader first", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "415", description = "Content-Type is not application/json", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "503", description = "The log is unavailable", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @PostMapping(path = "/admin/groups/{group}/reset", consumes = MediaType.APPLICATION_JSON_VALUE)
    GroupReset.Result reset(@Parameter(example = "analytics-dashboard") @PathVariable
            @Pattern(regexp = GROUP, message = "must be a consumer group id: 1 to 249 letters, digits, '.', '_', '-'") String group,
            @Valid @RequestBody ResetRequest request) {
        // @Valid: toDatetime is there
        return reset.reset(group, Objects.requireNonNull(request.toDatetime()), request.dryRun() == null || request.dryRun());
    }

    /**
     * The body; its constraints are declared here once, checked by the controller ({@code @Valid}) and shown by the
     * OpenAPI document. Whether the text is a date-time is {@link GroupReset}'s to say.
     *
     * @param toDatetime ISO-8601 with an offset, e.g. {@code 2026-11-26T00:00:00Z} or {@code 2026-11-26T00:00:00+01:00}
     * @param dryRun true (the default) shows the targets without moving anything
     */
    record ResetRequest(
            @NotBlank(message = OrderLimits.REQUIRED) @Size(min = 1, max = MAX_DATETIME_LENGTH, message = OrderLimits.AT_MOST_CHARACTERS)
            @Nullable String toDatetime,
            @Nullable Boolean dryRun) {

        /** Room for nanoseconds and a named zone's offset: {@code 2026-11-26T00:00:00.123456789+01:00} is 35. */
        static final int MAX_DATETIME_LENGTH = 64;
    }
}
