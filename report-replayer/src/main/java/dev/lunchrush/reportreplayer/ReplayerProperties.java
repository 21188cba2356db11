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
     * @param fetchMaxBytes bytes per fetch response: 16 MB, a bound that one reader of several partitions
     *        meets; a reader of one partition gets at most {@code maxPartitionFetchBytes}
     * @param maxPartitionFetchBytes bytes per partition per fetch: 1 MB. A fetch response is one buffer; below
     *        half a G1 region (4 MB regions, {@code infra/jvm/report-replayer.env}) it is an ordinary young
     *        object. Larger ones go to the old generation whole and start one concurrent marking cycle after
     *        another
     * @param readers at most this many consumers read a replay side by side, each its share of the partitions in
     *        a thread of its own: 3, the topic's partitions. Decoding is most of a replay's CPU, and one reader
     *        left the second core idle
     * @param keptStatuses how many finished replays {@code GET /api/replays} remembers
     */
    public record Replay(
            @DefaultValue(Topology.ORDERS_TOPIC) @NotBlank String topic,
            @DefaultValue("10000") @Min(1) int maxPollRecords,
            @DefaultValue("16777216") @Min(1024) int fetchMaxBytes,
            @DefaultValue("1048576") @Min(1024) int maxPartitionFetchBytes,
            @DefaultValue("3") @Min(1) int readers,
            @DefaultValue("100") @Min(1) int keptStatuses) {
    }
}
