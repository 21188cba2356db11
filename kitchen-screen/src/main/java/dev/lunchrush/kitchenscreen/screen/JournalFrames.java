package dev.lunchrush.kitchenscreen.screen;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32C;

import org.jspecify.annotations.Nullable;

/**
 * The shown journal's bytes: a frame is its payload's length, the payload's CRC-32C and the payload, so that a
 * frame cut short or garbled by a crash is recognised and cut off. A payload is one of three records, told by its
 * first byte: the counters and the horizon (at the start of every segment), a new horizon, or a batch of orders
 * shown together (when, from which source, how many were skipped, and each order's fields).
 */
final class JournalFrames {

    /** length and CRC before every payload */
    static final int HEAD_BYTES = 8;

    static final byte COUNTERS = 'C';
    static final byte BATCH = 'B';
    static final byte HORIZON = 'H';
    private static final byte LIVE = 1;
    private static final byte IMPORT = 0;

    private JournalFrames() {
    }

    /** The frame of a payload: length, CRC, payload, ready to be written with one write. */
    static ByteBuffer frame(byte[] payload) {
        ByteBuffer frame = ByteBuffer.allocate(HEAD_BYTES + payload.length);
        frame.putInt(payload.length).putInt(crc(payload)).put(payload).flip();
        return frame;
    }

    /** Whether a payload read back is the one its frame's head describes. */
    static boolean intact(ByteBuffer head, byte[] payload) {
        return crc(payload) == head.getInt(4);
    }

    private static int crc(byte[] payload) {
        CRC32C crc = new CRC32C();
        crc.update(payload);
        return (int) crc.getValue();
    }

    /** The counters and the horizon, with which every segment starts. */
    static byte[] counters(long horizonMillis, Map<String, Long> counters) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            out.writeByte(COUNTERS);
            out.writeLong(horizonMillis);
            out.writeInt(counters.size());
            for (Map.Entry<String, Long> counter : counters.entrySet()) {
                out.writeUTF(counter.getKey());
                out.writeLong(counter.getValue());
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return buffer.toByteArray();
    }

    /** A horizon moved up. */
    static byte[] horizon(long horizonMillis) {
        return ByteBuffer.allocate(1 + Long.BYTES).put(HORIZON).putLong(horizonMillis).array();
    }

    /** A batch's payload, built order by order in one buffer that is used again for the next batch. */
    static final class BatchWriter {

        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(64 * 1024);
        private final DataOutputStream out = new DataOutputStream(buffer);
        private int countsAt;

        void begin(long shownAtMillis, String source) throws IOException {
            buffer.reset();
            out.writeByte(BATCH);
            out.writeLong(shownAtMillis);
            out.writeUTF(source);
            countsAt = buffer.size();
            out.writeInt(0);
            out.writeInt(0);
            out.writeInt(0);
        }

        void add(ShownOrder order, boolean live) throws IOException {
            out.writeByte(live ? LIVE : IMPORT);
            out.writeUTF(order.orderId());
            out.writeUTF(order.kitchenId());
            out.writeUTF(order.run() == null ? "" : order.run());
            out.writeLong(order.sequence());
            out.writeLong(order.placedAt().toEpochMilli());
            out.writeUTF(order.customerId() == null ? "" : order.customerId());
            out.writeUTF(order.summary());
        }

        /** The payload, with the batch's counts of duplicates, expired and added orders. */
        byte[] finish(int duplicates, int expired, int added) {
            byte[] payload = buffer.toByteArray();
            ByteBuffer.wrap(payload, countsAt, 12).putInt(duplicates).putInt(expired).putInt(added);
            return payload;
        }
    }

    /** What a payload holds, for {@link #read}. */
    interface Reader {

        void counters(long horizonMillis, Map<String, Long> counters);

        void horizon(long horizonMillis);

        /** A batch: its header, then {@link #order} for each of its {@code count} orders. */
        void batch(long shownAtMillis, String source, int duplicates, int expired, int count);

        void order(ShownOrder order, boolean live);
    }

    /** Reads a payload into {@code reader}. */
    static void read(byte[] payload, Reader reader) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
        byte type = in.readByte();
        if (type == COUNTERS) {
            long horizonMillis = in.readLong();
            Map<String, Long> counters = new HashMap<>();
            for (int i = in.readInt(); i > 0; i--) {
                counters.put(in.readUTF(), in.readLong());
            }
            reader.counters(horizonMillis, counters);
        }
        else if (type == HORIZON) {
            reader.horizon(in.readLong());
        }
        else if (type == BATCH) {
            long shownAt = in.readLong();
            String source = in.readUTF();
            int duplicates = in.readInt();
            int expired = in.readInt();
            int count = in.readInt();
            reader.batch(shownAt, source, duplicates, expired, count);
            for (int i = 0; i < count; i++) {
                boolean live = in.readByte() == LIVE;
                reader.order(readOrder(in, shownAt, source), live);
            }
        }
    }

    /** The order of a batch's payload with this id, or null. */
    static @Nullable ShownOrder find(byte[] payload, String orderId) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
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

    private static ShownOrder readOrder(DataInputStream in, long shownAt, String source) throws IOException {
        String orderId = in.readUTF();
        String kitchenId = in.readUTF();
        String run = in.readUTF();
        long sequence = in.readLong();
        long placedAt = in.readLong();
        String customerId = in.readUTF();
        String summary = in.readUTF();
        return new ShownOrder(orderId, kitchenId, run, sequence, Instant.ofEpochMilli(placedAt), Instant.ofEpochMilli(shownAt),
                customerId, summary, source, Math.max(0, shownAt - placedAt), null);
    }
}
