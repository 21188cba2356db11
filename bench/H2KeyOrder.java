import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.util.Arrays;
import java.util.UUID;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.TimeBasedEpochRandomGenerator;

/**
 * What the order service's embedded H2 does per order in the log act, alone in one JVM: the
 * Idempotency-Key's look-up and insert (the client's key, random) and the SMS log's insert (keyed by
 * order id), with the service's tables and URL options. It fills a fresh database with PRELOAD orders,
 * then measures MEASURE more: process CPU, allocation (all threads, H2's background writer included)
 * and orders per second of wall time, per order. ORDER_IDS is v4 (random UUIDs) or v7 (time-ordered).
 * The tables, statements and URL options are copies of those in the order service's
 * {@code IdempotencyStore}, {@code SmsWorkers} and {@code IdempotencyConfiguration} (this program runs
 * on H2 and java-uuid-generator alone): change them there, change them here.
 *
 * <pre>
 * java -Xmx160m -cp h2.jar:java-uuid-generator.jar bench/H2KeyOrder.java DIR v4|v7 PRELOAD MEASURE [URL options]
 * </pre>
 */
public class H2KeyOrder {

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        boolean timeOrdered = switch (args[1]) {
            case "v4" -> false;
            case "v7" -> true;
            default -> throw new IllegalArgumentException("ORDER_IDS is v4 or v7, not " + args[1]);
        };
        int preload = Integer.parseInt(args[2]);
        int measure = Integer.parseInt(args[3]);
        String options = args.length > 4 ? args[4] : "";
        if (Files.exists(dir.resolve("db.mv.db"))) {
            throw new IllegalArgumentException(dir + " already holds a database: give a fresh folder");
        }
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        TimeBasedEpochRandomGenerator v7 = Generators.timeBasedEpochRandomGenerator();
        String url = "jdbc:h2:file:" + dir.toAbsolutePath().resolve("db") + ";DB_CLOSE_ON_EXIT=FALSE;CACHE_SIZE=2048" + options;
        try (Connection db = DriverManager.getConnection(url, "sa", "")) {
            db.createStatement().execute("""
                    CREATE TABLE idempotency_keys (idempotency_key VARCHAR(200) PRIMARY KEY, request_hash CHAR(64) NOT NULL,
                      status INT NOT NULL, location VARCHAR(300), body VARCHAR(8000) NOT NULL,
                      created_at TIMESTAMP WITH TIME ZONE NOT NULL)""");
            db.createStatement().execute("""
                    CREATE TABLE notification_log (task_id VARCHAR(64) PRIMARY KEY, order_id VARCHAR(64) NOT NULL,
                      worker VARCHAR(32) NOT NULL, sent_at TIMESTAMP WITH TIME ZONE NOT NULL)""");
            PreparedStatement find = db.prepareStatement(
                    "SELECT request_hash, status, location, body FROM idempotency_keys WHERE idempotency_key = ?");
            PreparedStatement remember = db.prepareStatement("INSERT INTO idempotency_keys "
                    + "(idempotency_key, request_hash, status, location, body, created_at) VALUES (?, ?, ?, ?, ?, ?)");
            PreparedStatement sent = db.prepareStatement(
                    "INSERT INTO notification_log (task_id, order_id, worker, sent_at) VALUES (?, ?, ?, ?)");
            String hash = "0123456789abcdef".repeat(4);
            long start = System.currentTimeMillis() - 86_400_000L;
            long wall = 0;
            long cpu = 0;
            long allocated = 0;
            for (int i = 0; i < preload + measure; i++) {
                if (i == preload) {
                    wall = System.nanoTime();
                    cpu = os.getProcessCpuTime();
                    allocated = allocatedBytes();
                }
                long placedAt = start + i / 5;
                String orderId = timeOrdered ? v7.construct(placedAt).toString() : UUID.randomUUID().toString();
                String key = UUID.randomUUID().toString();
                find.setString(1, key);
                try (ResultSet rows = find.executeQuery()) {
                    if (rows.next()) {
                        throw new IllegalStateException("a random key was found: " + key);
                    }
                }
                remember.setString(1, key);
                remember.setString(2, hash);
                remember.setInt(3, 201);
                remember.setString(4, "/orders/" + orderId);
                remember.setString(5, "{\"orderId\":\"" + orderId + "\",\"placedAt\":\"2026-11-30T12:00:00.123Z\","
                        + "\"kitchenId\":\"k3\",\"act\":\"log\",\"sequence\":" + i + "}");
                remember.setTimestamp(6, new Timestamp(placedAt));
                remember.executeUpdate();
                sent.setString(1, orderId);
                sent.setString(2, orderId);
                sent.setString(3, "sms-worker-1");
                sent.setTimestamp(4, new Timestamp(placedAt));
                sent.executeUpdate();
            }
            double seconds = (System.nanoTime() - wall) / 1e9;
            System.out.printf("order ids %s%s, %,d orders before: %.1f µs CPU and %.1f KB allocated per order, %,.0f orders/s, file %,d MB%n",
                    args[1], options, preload, (os.getProcessCpuTime() - cpu) / 1e3 / measure,
                    (allocatedBytes() - allocated) / 1e3 / measure, measure / seconds, Files.size(dir.resolve("db.mv.db")) >> 20);
        }
    }

    private static long allocatedBytes() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        return Arrays.stream(threads.getThreadAllocatedBytes(threads.getAllThreadIds())).filter(b -> b > 0).sum();
    }
}
