package dev.lunchrush.support;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * The JVM heap as the lesson talks about it: used now, used after the last collection (what is
 * really kept alive), the limit, and the limit of the old generation, where whatever lives long (the
 * in-memory feed of act 3) ends up: what the feed can have is that less what is kept alive before it.
 */
public record HeapFigures(long usedBytes, long usedAfterGcBytes, long maxBytes, long oldGenerationMaxBytes) {

    public static HeapFigures now() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long afterGc = 0;
        long oldMax = -1;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() != MemoryType.HEAP) {
                continue;
            }
            if (pool.getCollectionUsage() != null) {
                afterGc += pool.getCollectionUsage().getUsed();
            }
            String name = pool.getName();
            if (name.contains("Old Gen") || name.contains("Tenured")) {
                oldMax = pool.getUsage().getMax();
            }
        }
        long max = memory.getHeapMemoryUsage().getMax();
        return new HeapFigures(memory.getHeapMemoryUsage().getUsed(), afterGc, max, oldMax >= 0 ? oldMax : max);
    }
}
