package dev.lunchrush.kitchenscreen.screen;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
import java.util.stream.Stream;
import java.util.zip.CRC32C;

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

    private static final byte COUNTERS = 'C';
    private static final byte BATCH = 'B';
    private static final byte HORIZON = 'H';
    private static final byte LIVE = 1;
    private static final byte IMPORT = 0;

    private final Path dir;
    private final long retentionMillis;
    private final long maxIds;
    private final Clock clock;
    private final int segmentIds;
    private final TreeMap<Long, Segment> segments = new TreeMap<>();
    private final Map<String, Long> counters = new HashMap<>();
    private long horizonMillis;
    private long ids;
    private FileChannel current;
    private Path currentFile;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(64 * 1024);
    private final DataOutputStream out = new DataOutputStream(buffer);

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
        this.dir = dir.toAbsolutePath();
        this.retentionMillis = retention.toMillis();
        this.maxIds = maxIds;
        this.clock = clock;
        try {
            Files.createDirectories(this.dir);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot create the data folder " + this.dir, ex);
        }
    }

    /**
     * Reads the segments kept from an earlier run: ids, counters, horizon; hands each shown live order
     * that is still within the retention to {@code shown}, oldest first; cuts off a frame that a crash left
     * incomplete; forgets what is older than the retention.
     */
    synchronized void restore(Consumer<ShownOrder> shown) {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(file -> file.getFileName().toString().matches("shown-\\d+\\.journal")).sorted().toList();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        for (Path file : files) {
            String name = file.getFileName().toString();
            Segment segment = new Segment(Long.parseLong(name.substring(6, name.length() - 8)), file);
            segments.put(segment.startMillis, segment);
            read(segment, shown);
            ids += segment.ids.size();
        }
        forget();
    }

    private void read(Segment segment, Consumer<ShownOrder> shown) {
        try (FileChannel channel = FileChannel.open(segment.file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = channel.size();
            ByteBuffer head = ByteBuffer.allocate(8);
            long position = 0;
            while (position < size) {
                head.clear();
                if (channel.read(head, position) < 8 || head.getInt(0) <= 0 || position + 8 + head.getInt(0) > size) {
                    break;
                }
                ByteBuffer payload = ByteBuffer.allocate(head.getInt(0));
                channel.read(payload, position + 8);
                CRC32C crc = new CRC32C();
                crc.update(payload.array());
                if ((int) crc.getValue() != head.getInt(4)) {
                    break;
                }
                readFrame(segment, (int) position, payload.array(), shown);
                position += 8 + payload.capacity();
            }
            if (position < size) {
                log.warn("{}: cut off {} bytes after {} (a write cut short)", segment.file, size - position, position);
                channel.truncate(position);
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot read " + segment.file, ex);
        }
    }

    private void readFrame(Segment segment, int position, byte[] payload, Consumer<ShownOrder> shown) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
        byte type = in.readByte();
        if (type == COUNTERS) {
            horizonMillis = Math.max(horizonMillis, in.readLong());
            counters.clear();
            for (int i = in.readInt(); i > 0; i--) {
                counters.put(in.readUTF(), in.readLong());
            }
        }
        else if (type == HORIZON) {
            horizonMillis = Math.max(horizonMillis, in.readLong());
        }
        else if (type == BATCH) {
            long shownAt = in.readLong();
            segment.lastShownMillis = Math.max(segment.lastShownMillis, shownAt);
            String source = in.readUTF();
            int duplicates = in.readInt();
            int expired = in.readInt();
            int count = in.readInt();
            int imported = 0;
            for (int i = 0; i < count; i++) {
                boolean live = in.readByte() == LIVE;
                ShownOrder order = readOrder(in, shownAt, source);
                segment.ids.add(order.orderId(), position);
                if (!live) {
                    imported++;
                }
                else {
                    segment.newestLivePlacedMillis = Math.max(segment.newestLivePlacedMillis, order.placedAt().toEpochMilli());
                    // a live order shown longer ago than the retention is no longer on the screen, and still a live order
                    if (shownAt >= clock.millis() - retentionMillis - SKEW_MILLIS) {
                        shown.accept(order);
                    }
                }
            }
            add(RECEIVED_PREFIX + source, count);
            add(IMPORTED, imported);
            add(DUPLICATES, duplicates);
            add(EXPIRED, expired);
        }
    }

    private static ShownOrder readOrder(DataInputStream in, long shownAt, String source) throws IOException {
        String orderId = in.readUTF();
        String kitchenId = in.readUTF();
        String run = in.readUTF();
        long sequence = in.readLong();
        long placedAt = in.readLong();
        String customerId = in.readUTF();
        String summary = in.readUTF();
        return new ShownOrder(orderId, kitchenId, run, sequence, Instant.ofEpochMilli(placedAt), Instant.ofEpochMilli(shownAt),
                customerId, summary, source, Math.max(0, shownAt - placedAt));
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
        buffer.reset();
        try {
            out.writeByte(BATCH);
            out.writeLong(now);
            out.writeUTF(source);
            int countAt = buffer.size();
            out.writeInt(0);
            out.writeInt(0);
            out.writeInt(0);
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
                out.writeByte(event.isLive() ? LIVE : IMPORT);
                out.writeUTF(order.orderId());
                out.writeUTF(order.kitchenId());
                out.writeUTF(order.run() == null ? "" : order.run());
                out.writeLong(order.sequence());
                out.writeLong(order.placedAt().toEpochMilli());
                out.writeUTF(order.customerId() == null ? "" : order.customerId());
                out.writeUTF(order.summary());
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
            byte[] payload = buffer.toByteArray();
            ByteBuffer.wrap(payload, countAt, 12).putInt(duplicates).putInt(expired).putInt(batchIds.size());
            int position = append(payload);
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

    private ShownOrder readBatchFor(Segment segment, int position, String orderId) {
        try (FileChannel channel = FileChannel.open(segment.file, StandardOpenOption.READ)) {
            ByteBuffer head = ByteBuffer.allocate(8);
            channel.read(head, position);
            ByteBuffer payload = ByteBuffer.allocate(head.getInt(0));
            channel.read(payload, position + 8);
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload.array()));
            in.readByte();
            long shownAt = in.readLong();
            String source = in.readUTF();
            in.readInt();
            in.readInt();
            for (int i = in.readInt(); i > 0; i--) {
                in.readByte();
                ShownOrder order = readOrder(in, shownAt, source);
                if (order.orderId().equals(orderId)) {
                    return order;
                }
            }
            return null;
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
            if (segment.file.equals(currentFile)) {
                closeCurrent();
            }
            try {
                Files.deleteIfExists(segment.file);
            }
            catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
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
            buffer.reset();
            out.writeByte(HORIZON);
            out.writeLong(horizonMillis);
            openForAppend(last);
            append(buffer.toByteArray());
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private Segment segmentFor(long now) {
        Map.Entry<Long, Segment> last = segments.lastEntry();
        if (last != null && now / SEGMENT_MILLIS == last.getKey() / SEGMENT_MILLIS && last.getValue().ids.size() < segmentIds
                && last.getKey() <= now) {
            openForAppend(last.getValue());
            return last.getValue();
        }
        return startSegment(last == null ? now : Math.max(now, last.getKey() + 1));
    }

    private Segment startSegment(long start) {
        Segment segment = new Segment(start, dir.resolve("shown-%015d.journal".formatted(start)));
        segments.put(start, segment);
        try {
            closeCurrent();
            current = FileChannel.open(segment.file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            current.position(current.size());
            currentFile = segment.file;
            buffer.reset();
            out.writeByte(COUNTERS);
            out.writeLong(horizonMillis);
            out.writeInt(counters.size());
            for (Map.Entry<String, Long> counter : counters.entrySet()) {
                out.writeUTF(counter.getKey());
                out.writeLong(counter.getValue());
            }
            append(buffer.toByteArray());
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot start the journal segment " + segment.file, ex);
        }
        buffer.reset();
        return segment;
    }

    private void openForAppend(Segment segment) {
        if (segment.file.equals(currentFile)) {
            return;
        }
        closeCurrent();
        try {
            current = FileChannel.open(segment.file, StandardOpenOption.WRITE);
            current.position(current.size());
            currentFile = segment.file;
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot open the journal segment " + segment.file, ex);
        }
    }

    /** Writes one frame (length, CRC, payload) with one write; returns where it starts. */
    private int append(byte[] payload) throws IOException {
        CRC32C crc = new CRC32C();
        crc.update(payload);
        ByteBuffer frame = ByteBuffer.allocate(8 + payload.length);
        frame.putInt(payload.length).putInt((int) crc.getValue()).put(payload).flip();
        long position = current.position();
        while (frame.hasRemaining()) {
            current.write(frame);
        }
        return (int) position;
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
        long total = 0;
        for (Segment segment : segments.values()) {
            try {
                total += Files.size(segment.file);
            }
            catch (IOException ex) {
                // deleted meanwhile
            }
        }
        return total;
    }

    private void closeCurrent() {
        if (current != null) {
            try {
                current.close();
            }
            catch (IOException ex) {
                log.warn("closing {}: {}", currentFile, ex.toString());
            }
            current = null;
            currentFile = null;
        }
    }

    @Override
    public synchronized void close() {
        closeCurrent();
    }
}
