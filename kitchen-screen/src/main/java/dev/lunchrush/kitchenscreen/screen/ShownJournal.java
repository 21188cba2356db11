package dev.lunchrush.kitchenscreen.screen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.lunchrush.events.OrderEvent;

/**
 * The orders this screen has shown, in an append-only journal of its own under the data folder: one
 * write per batch (a frame with its length and CRC), no database. It is what lets a restarted screen
 * refuse an order it already showed, whatever the source redelivers, and rebuild its counters, columns
 * and gap finder.
 *
 * <p>What it remembers, and for how long: the journal is cut into segments (a new one every hour of
 * the clock, or after {@link #SEGMENT_IDS} orders); each segment's ids are held in memory
 * ({@link OrderIdSet}). A segment is deleted, file and ids, once everything in it was shown longer ago
 * than {@code retention}, or earlier, oldest first, when the ids held exceed {@code maxIds}. Whatever
 * is forgotten moves the <em>horizon</em> up to where it ends (the retention's, or just past the newest
 * placed-at of the live orders forgotten early): a live order placed before the horizon is not shown any
 * more (counted as expired), so no order is ever shown twice — a live order whose id was forgotten was
 * placed before the horizon. Each segment starts with the counters and the horizon, so
 * they survive the deletion of the segments before it.
 *
 * <p>A kill -9 loses nothing that {@link #record} returned: each batch is one {@code write} to the file
 * (in the operating system's cache from then on); a frame cut short by a crash is cut off at the
 * restart. There is no fsync per batch: a power cut may lose the last batches' ids.
 *
 * <p>This class keeps the rule (what is known, the horizon, what is forgotten when); {@link JournalFrames} says how
 * a frame is written and {@link JournalFiles} where the segments' files are.
 */
final class ShownJournal implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ShownJournal.class);

    static final String DUPLICATES = "duplicates";
    static final String IMPORTED = "imported";
    static final String EXPIRED = "expired";
    static final String RECEIVED_PREFIX = "received.";

    /** ids per segment at most: the step in which ids are forgotten early when {@code maxIds} is reached */
    static final int SEGMENT_IDS = 100_000;
    private static final long SEGMENT_MILLIS = Duration.ofHours(1).toMillis();
    /** clocks of the order service and the screen may differ by this much; a forgotten id waits it out */
    private static final long SKEW_MILLIS = Duration.ofMinutes(1).toMillis();

    private final JournalFiles files;
    private final long retentionMillis;
    private final long maxIds;
    private final Clock clock;
    private final int segmentIds;
    private final TreeMap<Long, Segment> segments = new TreeMap<>();
    private final Map<String, Long> counters = new HashMap<>();
    private final JournalFrames.BatchWriter batch = new JournalFrames.BatchWriter();
    private long horizonMillis;
    private long ids;

    private static final class Segment {
        final long startMillis;
        final Path file;
        final OrderIdSet ids = new OrderIdSet();
        /** when its last batch was shown: everything in it was shown at or before this */
        long lastShownMillis;
        /** the newest placed-at of its live orders: when it is forgotten early, the horizon moves just past it */
        long newestLivePlacedMillis = Long.MIN_VALUE;

        Segment(long startMillis, Path file) {
            this.startMillis = startMillis;
            this.file = file;
            this.lastShownMillis = startMillis;
        }
    }

    /** The outcome of recording a batch. */
    record Recorded(List<ShownOrder> fresh, int imported, int duplicates, int expired) {
    }

    ShownJournal(Path dir, Duration retention, long maxIds, Clock clock) {
        this(dir, retention, maxIds, clock, SEGMENT_IDS);
    }

    ShownJournal(Path dir, Duration retention, long maxIds, Clock clock, int segmentIds) {
        this.segmentIds = segmentIds;
        this.files = new JournalFiles(dir);
        this.retentionMillis = retention.toMillis();
        this.maxIds = maxIds;
        this.clock = clock;
    }

    /**
     * Reads the segments kept from an earlier run: ids, counters, horizon; hands each shown live order
     * that is still within the retention to {@code shown}, oldest first; cuts off a frame that a crash left
     * incomplete; forgets what is older than the retention.
     */
    synchronized void restore(Consumer<ShownOrder> shown) {
        for (Path file : files.list()) {
            Segment segment = new Segment(JournalFiles.startOf(file), file);
            segments.put(segment.startMillis, segment);
            files.read(file, (position, payload) -> JournalFrames.read(payload, new Restoring(segment, position, shown)));
            ids += segment.ids.size();
        }
        forget();
    }

    /** What a frame read back at the start adds to the journal's state. */
    private final class Restoring implements JournalFrames.Reader {

        private final Segment segment;
        private final int position;
        private final Consumer<ShownOrder> shown;
        private long shownAt;

        Restoring(Segment segment, int position, Consumer<ShownOrder> shown) {
            this.segment = segment;
            this.position = position;
            this.shown = shown;
        }

        @Override
        public void counters(long horizon, Map<String, Long> stored) {
            horizonMillis = Math.max(horizonMillis, horizon);
            counters.clear();
            counters.putAll(stored);
        }

        @Override
        public void horizon(long horizon) {
            horizonMillis = Math.max(horizonMillis, horizon);
        }

        @Override
        public void batch(long shownAtMillis, String batchSource, int duplicates, int expired, int count) {
            shownAt = shownAtMillis;
            segment.lastShownMillis = Math.max(segment.lastShownMillis, shownAtMillis);
            add(RECEIVED_PREFIX + batchSource, count);
            add(DUPLICATES, duplicates);
            add(EXPIRED, expired);
        }

        @Override
        public void order(ShownOrder order, boolean live) {
            segment.ids.add(order.orderId(), position);
            if (!live) {
                add(IMPORTED, 1);
                return;
            }
            segment.newestLivePlacedMillis = Math.max(segment.newestLivePlacedMillis, order.placedAt().toEpochMilli());
            // a live order shown longer ago than the retention is no longer on the screen, and still a live order
            if (shownAt >= clock.millis() - retentionMillis - SKEW_MILLIS) {
                shown.accept(order);
            }
        }
    }

    /**
     * Keeps the new orders, skips the known ones and the live ones placed before the horizon; one write.
     * Returns once the batch is in the file.
     */
    synchronized Recorded record(String source, List<OrderEvent> events, Instant shownAt) {
        long now = shownAt.toEpochMilli();
        long horizon = horizon(now);
        Segment segment = segmentFor(now);
        List<ShownOrder> fresh = new ArrayList<>(events.size());
        Set<String> batchIds = new HashSet<>();
        int duplicates = 0;
        int expired = 0;
        int imported = 0;
        long newestLivePlaced = Long.MIN_VALUE;
        try {
            batch.begin(now, source);
            for (OrderEvent event : events) {
                if (known(event.orderId()) || batchIds.contains(event.orderId())) {
                    duplicates++;
                    continue;
                }
                if (event.isLive() && event.placedAt().toEpochMilli() < horizon) {
                    expired++;
                    continue;
                }
                ShownOrder order = ShownOrder.of(event, source, shownAt);
                batch.add(order, event.isLive());
                batchIds.add(order.orderId());
                if (event.isLive()) {
                    fresh.add(order);
                    newestLivePlaced = Math.max(newestLivePlaced, order.placedAt().toEpochMilli());
                }
                else {
                    imported++;
                }
            }
            if (batchIds.isEmpty() && duplicates == 0 && expired == 0) {
                return new Recorded(fresh, 0, 0, 0);
            }
            int position = files.append(batch.finish(duplicates, expired, batchIds.size()));
            for (String id : batchIds) {
                segment.ids.add(id, position);
            }
            segment.lastShownMillis = Math.max(segment.lastShownMillis, now);
            segment.newestLivePlacedMillis = Math.max(segment.newestLivePlacedMillis, newestLivePlaced);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot write to the journal " + segment.file, ex);
        }
        ids += batchIds.size();
        add(RECEIVED_PREFIX + source, batchIds.size());
        add(IMPORTED, imported);
        add(DUPLICATES, duplicates);
        add(EXPIRED, expired);
        if (ids > maxIds) {
            forget();
        }
        return new Recorded(fresh, imported, duplicates, expired);
    }

    /** Live orders placed before this are not shown: the screen may have forgotten that it showed them. */
    synchronized long horizon(long nowMillis) {
        return Math.max(horizonMillis, nowMillis - retentionMillis);
    }

    private boolean known(String orderId) {
        boolean uuid = OrderIdSet.isUuid(orderId);
        // parsed once for all the segments (one an hour: up to ~50 with the 2-day retention)
        long hi = uuid ? OrderIdSet.high(orderId) : 0;
        long lo = uuid ? OrderIdSet.low(orderId) : 0;
        for (Segment segment : segments.descendingMap().values()) {
            if ((uuid ? segment.ids.position(hi, lo) : segment.ids.position(orderId)) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** The shown order with this id, if it is still remembered. */
    synchronized Optional<ShownOrder> find(String orderId) {
        for (Segment segment : segments.descendingMap().values()) {
            int position = segment.ids.position(orderId);
            if (position >= 0) {
                return Optional.ofNullable(readBatchFor(segment, position, orderId));
            }
        }
        return Optional.empty();
    }

    private @Nullable ShownOrder readBatchFor(Segment segment, int position, String orderId) {
        try {
            return JournalFrames.find(files.readAt(segment.file, position), orderId);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot read " + segment.file, ex);
        }
    }

    /**
     * Deletes the segments whose orders were all shown longer ago than the retention (plus a minute for
     * the clocks), then, oldest first, those over {@code maxIds}; moves the horizon past them.
     */
    synchronized int forget() {
        long now = clock.millis();
        int forgotten = 0;
        while (!segments.isEmpty()) {
            Map.Entry<Long, Segment> oldest = segments.firstEntry();
            Segment segment = oldest.getValue();
            boolean last = segments.size() == 1;
            boolean old = segment.lastShownMillis < now - retentionMillis - SKEW_MILLIS;
            boolean tooMany = !last && ids > maxIds;
            if (!old && !tooMany) {
                break;
            }
            if (last) {
                // a new segment first, so that the counters and the horizon stay on disk
                startSegment(Math.max(now, segment.startMillis + 1));
            }
            segments.remove(oldest.getKey());
            files.delete(segment.file);
            ids -= segment.ids.size();
            forgotten += segment.ids.size();
            if (!old && segment.newestLivePlacedMillis != Long.MIN_VALUE) {
                // forgotten early, before the retention: live orders placed up to the newest one forgotten are not
                // shown from now on, so that none of those is shown twice. Placed-at, not shown-at: in a catch-up
                // the segment was shown moments ago, and orders placed since its newest but not read yet are still
                // shown. The retention's horizon, now - retention, moves by itself
                horizonMillis = Math.max(horizonMillis, segment.newestLivePlacedMillis + 1);
                writeHorizon();
                log.warn("more than {} order ids remembered: forgot {} shown before {}; live orders placed before {} "
                        + "are no longer shown", maxIds, segment.ids.size(), Instant.ofEpochMilli(segment.lastShownMillis),
                        Instant.ofEpochMilli(horizonMillis));
            }
        }
        return forgotten;
    }

    private void writeHorizon() {
        if (segments.isEmpty()) {
            return;
        }
        Segment last = segments.lastEntry().getValue();
        try {
            files.openForAppend(last.file);
            files.append(JournalFrames.horizon(horizonMillis));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private Segment segmentFor(long now) {
        Map.Entry<Long, Segment> last = segments.lastEntry();
        if (last != null && now / SEGMENT_MILLIS == last.getKey() / SEGMENT_MILLIS && last.getValue().ids.size() < segmentIds
                && last.getKey() <= now) {
            files.openForAppend(last.getValue().file);
            return last.getValue();
        }
        return startSegment(last == null ? now : Math.max(now, last.getKey() + 1));
    }

    private Segment startSegment(long start) {
        Segment segment = new Segment(start, files.fileFor(start));
        segments.put(start, segment);
        try {
            files.create(segment.file);
            files.append(JournalFrames.counters(horizonMillis, counters));
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot start the journal segment " + segment.file, ex);
        }
        return segment;
    }

    private void add(String counter, long delta) {
        if (delta != 0) {
            counters.merge(counter, delta, Long::sum);
        }
    }

    synchronized Map<String, Long> counters() {
        return new HashMap<>(counters);
    }

    /** Ids remembered now, all segments together. */
    synchronized long ids() {
        return ids;
    }

    /** Bytes of the journal on disk now. */
    synchronized long bytes() {
        return JournalFiles.bytes(segments.values().stream().map(segment -> segment.file).toList());
    }

    @Override
    public synchronized void close() {
        files.close();
    }
}
