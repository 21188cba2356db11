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
     * @param fetchMaxBytes bytes per fetch response: 16 MB. A fetch response is one buffer, and in G1 (1 MB
     *        regions in a 256 MB heap) responses of up to 48 MB (64 MB, 16 MB a partition) went straight to the
     *        old generation and started one concurrent marking cycle after another: 40% of the replayer's CPU
     *        in a replay was GC. Smaller ones (4 MB, 1 MB a partition) wait more often for the next fetch
     * @param maxPartitionFetchBytes bytes per partition per fetch: 4 MB
     * @param keptStatuses how many finished replays {@code GET /api/replays} remembers
     */
    public record Replay(
            @DefaultValue(Topology.ORDERS_TOPIC) @NotBlank String topic,
            @DefaultValue("10000") @Min(1) int maxPollRecords,
            @DefaultValue("16777216") @Min(1024) int fetchMaxBytes,
            @DefaultValue("4194304") @Min(1024) int maxPartitionFetchBytes,
            @DefaultValue("100") @Min(1) int keptStatuses) {
    }
}
