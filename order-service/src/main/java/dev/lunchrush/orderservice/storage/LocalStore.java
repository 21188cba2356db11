package dev.lunchrush.orderservice.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.TtlDB;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import dev.lunchrush.orderservice.OrderServiceProperties;

/**
 * What the order service remembers on disk, in an embedded RocksDB ({@code <data-dir>/store}): the
 * Idempotency-Keys' first answers and the SMS tasks already done, each in a column family of its own
 * with a time to live.
 *
 * <p>Why RocksDB: both are written once per order under random keys (a client's Idempotency-Key),
 * and read mostly for keys that are not there. In a B-tree (the H2 database this replaced) each write
 * read a leaf from the file and wrote it back, the tree growing with every order; in RocksDB's LSM
 * tree a write is an append to the write-ahead log and a sorted buffer in memory, and a lookup of an
 * absent key is answered by a Bloom filter. Its buffers and cache live outside the Java heap, so they
 * do not take from the in-memory feed's budget (act 3).
 *
 * <p>Durability is the write-ahead log's, written (not synced) before a put returns: it survives a
 * {@code kill -9} of the service, as the operating system has it; not a power loss.
 *
 * <p>Bound: an entry older than its retention is dropped at the next compaction, and a full
 * compaction runs every {@link StoreSettings#compactionInterval()}, so the files hold at most
 * retention + interval of entries. Until then a lookup may still find an expired entry: a key is
 * remembered for at least its retention.
 */
@Component
public class LocalStore implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(LocalStore.class);

    /** The kinds of memory, each a column family with its retention. */
    public enum Family {
        IDEMPOTENCY("idempotency"), IMPORTS("import-keys"), NOTIFICATIONS("notifications-done");

        private final String columnFamily;

        Family(String columnFamily) {
            this.columnFamily = columnFamily;
        }
    }

    static {
        RocksDB.loadLibrary();
    }

    private final Path directory;
    private final LRUCache cache;
    private final DBOptions options;
    private final List<ColumnFamilyOptions> familyOptions = new ArrayList<>();
    private final List<ColumnFamilyHandle> handles = new ArrayList<>();
    private final TtlDB db;
    private final WriteOptions writes;
    private final ScheduledExecutorService compactions;

    @Autowired
    LocalStore(OrderServiceProperties properties, StoreSettings settings) {
        this(properties.dataDir().resolve("store"), settings);
    }

    LocalStore(Path directory, StoreSettings settings) {
        this.directory = directory;
        try {
            Files.createDirectories(directory);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot create " + directory, ex);
        }
        // small and bounded: a few MB of memtables and cache, outside the heap
        this.cache = new LRUCache(8L << 20);
        this.options = new DBOptions()
                .setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                .setMaxBackgroundJobs(1)
                .setMaxTotalWalSize(16L << 20)
                .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
                .setMaxLogFileSize(1L << 20)
                .setKeepLogFileNum(2);
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        List<Integer> ttls = new ArrayList<>();
        descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, family(1L << 20)));
        ttls.add(0);
        for (Family family : Family.values()) {
            descriptors.add(new ColumnFamilyDescriptor(family.columnFamily.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    // the orders' keys take most writes: a larger memtable, fewer files to compact
                    family(family == Family.IDEMPOTENCY ? 8L << 20 : 4L << 20)));
            ttls.add(seconds(switch (family) {
                case IDEMPOTENCY -> settings.idempotencyRetention();
                case IMPORTS -> settings.importRetention();
                case NOTIFICATIONS -> settings.notificationsRetention();
            }));
        }
        try {
            this.db = TtlDB.open(options, directory.toString(), descriptors, handles, ttls, false);
        }
        catch (RocksDBException ex) {
            close();
            throw new IllegalStateException("cannot open the store in " + directory + ": " + ex.getMessage(), ex);
        }
        this.writes = new WriteOptions();
        this.compactions = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "store-compaction");
            thread.setDaemon(true);
            return thread;
        });
        long every = Math.max(1, settings.compactionInterval().toMillis());
        compactions.scheduleWithFixedDelay(this::compactSafely, every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * A column family's options. Its keys come in random order (a client's Idempotency-Key), so each file
     * flushed from memory overlaps every file of the level below: with RocksDB's default of sizing the levels
     * from the last one, the first level below memory would be the whole store, and every compaction would
     * rewrite all of it, at a cost growing with the store. Fixed level sizes (16 MB for the first, ten times that
     * for each next one) bound what a compaction rewrites, and LZ4 on every level, because ZSTD on the last costs
     * far more CPU for little disk.
     */
    private ColumnFamilyOptions family(long writeBufferBytes) {
        ColumnFamilyOptions family = new ColumnFamilyOptions()
                .setWriteBufferSize(writeBufferBytes)
                .setMaxWriteBufferNumber(2)
                .setLevelCompactionDynamicLevelBytes(false)
                .setMaxBytesForLevelBase(16L << 20)
                .setTargetFileSizeBase(4L << 20)
                // a Bloom filter over the memtable's keys: a lookup of a new key (nearly every order's) is
                // answered without a search of the memtable's skip list
                .setMemtablePrefixBloomSizeRatio(0.1)
                .setMemtableWholeKeyFiltering(true)
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setBottommostCompressionType(CompressionType.LZ4_COMPRESSION)
                .setTableFormatConfig(new BlockBasedTableConfig()
                        .setBlockCache(cache)
                        .setFilterPolicy(new BloomFilter(10, false)));
        familyOptions.add(family);
        return family;
    }

    private static int seconds(Duration retention) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, retention.toSeconds()));
    }

    public byte @Nullable [] get(Family family, byte[] key) {
        try {
            ColumnFamilyHandle handle = handle(family);
            // most keys asked for are new: the Bloom filters and memtables say so without a full read
            if (!db.keyMayExist(handle, key, null)) {
                return null;
            }
            return db.get(handle, key);
        }
        catch (RocksDBException ex) {
            throw new StoreException("could not read the store: " + ex.getMessage(), ex);
        }
    }

    public void put(Family family, byte[] key, byte[] value) {
        try {
            db.put(handle(family), writes, key, value);
        }
        catch (RocksDBException ex) {
            throw new StoreException("could not write the store: " + ex.getMessage(), ex);
        }
    }

    public void delete(Family family, byte[] key) {
        try {
            db.delete(handle(family), writes, key);
        }
        catch (RocksDBException ex) {
            throw new StoreException("could not write the store: " + ex.getMessage(), ex);
        }
    }

    /** Several entries in one write (one append to the write-ahead log): all of them are stored, or none. */
    public void putAll(Family family, List<Entry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        try (WriteBatch batch = new WriteBatch()) {
            ColumnFamilyHandle handle = handle(family);
            for (Entry entry : entries) {
                batch.put(handle, entry.key(), entry.value());
            }
            db.write(writes, batch);
        }
        catch (RocksDBException ex) {
            throw new StoreException("could not write the store: " + ex.getMessage(), ex);
        }
    }

    /** A key and its value. */
    public record Entry(byte[] key, byte[] value) {
    }

    /** Drops the expired entries now: what the scheduled compaction does. */
    public void compact() {
        try {
            for (Family family : Family.values()) {
                db.compactRange(handle(family));
            }
        }
        catch (RocksDBException ex) {
            throw new StoreException("could not compact the store: " + ex.getMessage(), ex);
        }
    }

    /** Writes the memtables to files (for a test of the size on disk). */
    public void flush() {
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            for (Family family : Family.values()) {
                db.flush(flush, handle(family));
            }
        }
        catch (RocksDBException ex) {
            throw new StoreException("could not flush the store: " + ex.getMessage(), ex);
        }
    }

    /** Bytes of the store's files on disk (tables, write-ahead log, manifest). */
    public long sizeOnDisk() {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(Files::isRegularFile).mapToLong(file -> {
                try {
                    return Files.size(file);
                }
                catch (IOException ex) {
                    return 0;
                }
            }).sum();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private void compactSafely() {
        try {
            compact();
        }
        catch (RuntimeException ex) {
            log.warn("compaction of the store failed: {}", ex.getMessage());
        }
    }

    private ColumnFamilyHandle handle(Family family) {
        return handles.get(family.ordinal() + 1);
    }

    @Override
    public void destroy() {
        compactions.shutdownNow();
        close();
    }

    private synchronized void close() {
        for (ColumnFamilyHandle handle : handles) {
            handle.close();
        }
        handles.clear();
        if (db != null) {
            db.close();
        }
        if (writes != null) {
            writes.close();
        }
        familyOptions.forEach(ColumnFamilyOptions::close);
        options.close();
        cache.close();
    }

    /** The store could not be read or written. */
    public static class StoreException extends RuntimeException {

        public StoreException(String message, @Nullable Throwable cause) {
            super(message, cause);
        }
    }
}
