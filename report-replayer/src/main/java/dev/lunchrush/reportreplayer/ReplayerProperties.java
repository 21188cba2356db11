package dev.lunchrush.reportreplayer;

import java.nio.file.Path;
import java.time.ZoneId;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import dev.lunchrush.events.Topology;

/**
 * @param dataDir where reports are kept, one JSON file per (day, zone)
 * @param zone the zone of a replay or report request that names none
 * @param replay how the log is read
 */
@Validated
@ConfigurationProperties("lunchrush")
public record ReplayerProperties(
        @DefaultValue("data/report-replayer") @NotNull Path dataDir,
        @DefaultValue("UTC") @NotNull ZoneId zone,
        @DefaultValue @Valid Replay replay) {

    /**
     * @param topic the log
     * @param maxPollRecords records per poll: large, the replay wants throughput, not latency
     * @param fetchMaxBytes bytes per fetch response
     * @param maxPartitionFetchBytes bytes per partition per fetch
     * @param keptStatuses how many finished replays {@code GET /api/replays} remembers
     */
    public record Replay(
            @DefaultValue(Topology.ORDERS_TOPIC) @NotBlank String topic,
            @DefaultValue("10000") @Min(1) int maxPollRecords,
            @DefaultValue("67108864") @Min(1024) int fetchMaxBytes,
            @DefaultValue("16777216") @Min(1024) int maxPartitionFetchBytes,
            @DefaultValue("100") @Min(1) int keptStatuses) {
    }
}
