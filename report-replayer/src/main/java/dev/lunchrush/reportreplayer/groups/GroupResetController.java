package dev.lunchrush.reportreplayer.groups;

import org.jspecify.annotations.Nullable;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** {@code POST /admin/groups/{group}/reset}, like {@code kafka-consumer-groups --reset-offsets --to-datetime}. */
@RestController
class GroupResetController {

    private final GroupReset reset;

    GroupResetController(GroupReset reset) {
        this.reset = reset;
    }

    @PostMapping("/admin/groups/{group}/reset")
    GroupReset.Result reset(@PathVariable String group, @RequestBody ResetRequest request) {
        return reset.reset(group, request.toDatetime(), request.dryRun() == null || request.dryRun());
    }

    /**
     * @param toDatetime ISO-8601 with an offset, e.g. {@code 2026-11-26T00:00:00Z} or {@code 2026-11-26T00:00:00+01:00}
     * @param dryRun true (the default) shows the targets without moving anything
     */
    record ResetRequest(@Nullable String toDatetime, @Nullable Boolean dryRun) {
    }
}
