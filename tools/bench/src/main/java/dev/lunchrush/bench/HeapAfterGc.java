package dev.lunchrush.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.lunchrush.localstack.StackManifest;

/**
 * The heap each lesson service of {@code ./demo up} keeps after a full collection, asked of its JVM with the JDK's own
 * {@code jcmd} ({@code GC.run}, then {@code GC.heap_info}): what a service holds, not what its garbage happens to be at
 * the moment. A service that is not running, or that {@code jcmd} cannot reach, is left out.
 */
final class HeapAfterGc {

    /** The heap's lines of {@code GC.heap_info}: a generation of the serial or parallel collector, or G1's one heap. */
    private static final Pattern USED = Pattern.compile(
            "^\\s*(def new generation|tenured generation|PSYoungGen|ParOldGen|garbage-first heap)\\s+total \\d+K, used (\\d+)K",
            Pattern.MULTILINE);

    private HeapAfterGc() {
    }

    /** MB after a full collection, by service name, for the services whose {@code .run/<name>.pid} is a live JVM. */
    static Map<String, Double> ofServices(Path root) {
        Map<String, Double> heaps = new LinkedHashMap<>();
        for (StackManifest.Service service : StackManifest.get().lessonServices()) {
            Path pidFile = root.resolve(".run").resolve(service.name() + ".pid");
            try {
                String pid = Files.readString(pidFile, StandardCharsets.US_ASCII).strip();
                jcmd(pid, "GC.run");
                Double mb = usedMb(jcmd(pid, "GC.heap_info"));
                if (mb != null) {
                    heaps.put(service.name(), mb);
                }
            }
            catch (IOException ex) {
                // not started by ./demo up, or not reachable: no figure
            }
        }
        return heaps;
    }

    /** The MB the heap's lines of a {@code GC.heap_info} answer say are used; null when it has none. */
    static Double usedMb(String heapInfo) {
        Matcher m = USED.matcher(heapInfo);
        long kb = 0;
        boolean found = false;
        while (m.find()) {
            kb += Long.parseLong(m.group(2));
            found = true;
        }
        return found ? kb / 1024.0 : null;
    }

    private static String jcmd(String pid, String command) throws IOException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process process = new ProcessBuilder(List.of(jcmd.toString(), pid, command)).redirectErrorStream(true).start();
        try {
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException("jcmd " + pid + " " + command + " failed: " + out.strip());
            }
            return out;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", ex);
        }
        finally {
            process.destroy();
        }
    }
}
