package dev.lunchrush.analyticsdashboard.processing;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** {@code PUT /admin/capacity}: the job's capacity, for speeded-up rushes. Admin only. */
@RestController
class CapacityController {

    private static final Logger log = LoggerFactory.getLogger(CapacityController.class);

    private final Capacity capacity;

    CapacityController(Capacity capacity) {
        this.capacity = capacity;
    }

    record CapacityChange(@NotNull @Min(1) @Max(1_000_000) Integer eventsPerSecond) {
    }

    @PutMapping("/admin/capacity")
    CapacityChange change(@Valid @RequestBody CapacityChange change) {
        capacity.change(change.eventsPerSecond());
        log.info("capacity set to {} events/s", change.eventsPerSecond());
        return new CapacityChange(capacity.perSecond());
    }
}
