package dev.lunchrush.support;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * The JVM heap as the lesson talks about it: used now, used after the last collection (what is
 * really kept alive), and the limit.
 */
public record HeapFigures(long usedBytes, long usedAfterGcBytes, long maxBytes) {

    public static HeapFigures now() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long afterGc = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
                afterGc += pool.getCollectionUsage().getUsed();
            }
        }
        return new HeapFigures(memory.getHeapMemoryUsage().getUsed(), afterGc, memory.getHeapMemoryUsage().getMax());
    }
}
