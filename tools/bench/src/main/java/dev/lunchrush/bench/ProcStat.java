package dev.lunchrush.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What Linux's {@code /proc} says about CPU time: a process's ticks ({@code utime} + {@code stime}, fields 14 and
 * 15 of {@code /proc/PID/stat}, all its threads), the machine's (the first line of {@code /proc/stat}), and which
 * process listens on a TCP port ({@code /proc/net/tcp} and {@code tcp6}, then the socket's inode among
 * {@code /proc/PID/fd}). Ticks are {@code getconf CLK_TCK} a second (100 on Linux).
 */
final class ProcStat {

    private static final Path PROC = Path.of("/proc");

    /**
     * One reading of {@code /proc/PID/stat}.
     *
     * @param utime field 14, ticks in user mode
     * @param stime field 15, ticks in kernel mode
     * @param childTicks fields 16 and 17: the ticks of children the process waited for
     * @param startTime field 22, when the process started (ticks after boot): a pid reused in between differs here
     */
    record Process(long pid, String comm, long utime, long stime, long childTicks, long startTime) {

        long ticks() {
            return utime + stime;
        }
    }

    /**
     * The first line of {@code /proc/stat}, in ticks summed over every core. Busy is user + nice + system + irq +
     * softirq (guest time is inside user); idle, iowait (idle while a disk is awaited) and steal (a hypervisor's)
     * are not this machine's work.
     */
    record Machine(long user, long nice, long system, long idle, long iowait, long irq, long softirq, long steal) {

        long busy() {
            return user + nice + system + irq + softirq;
        }

        long total() {
            return busy() + idle + iowait + steal;
        }

        Machine minus(Machine before) {
            return new Machine(user - before.user, nice - before.nice, system - before.system, idle - before.idle,
                    iowait - before.iowait, irq - before.irq, softirq - before.softirq, steal - before.steal);
        }
    }

    private ProcStat() {
    }

    /**
     * Parses a {@code /proc/PID/stat} line. The command name (field 2) is in parentheses and may itself hold spaces
     * and parentheses, so the fields after it are counted from its last closing parenthesis.
     */
    static Process parse(String line) {
        int open = line.indexOf('(');
        int close = line.lastIndexOf(')');
        if (open < 0 || close < open) {
            throw new IllegalArgumentException("not a /proc/PID/stat line: " + line);
        }
        long pid = Long.parseLong(line.substring(0, open).strip());
        String comm = line.substring(open + 1, close);
        // after the name: field 3 (state) is [0], so field n is [n - 3]
        String[] fields = line.substring(close + 1).strip().split("\\s+");
        if (fields.length < 20) {
            throw new IllegalArgumentException("a /proc/PID/stat line with " + (fields.length + 2) + " fields: " + line);
        }
        return new Process(pid, comm, Long.parseLong(fields[14 - 3]), Long.parseLong(fields[15 - 3]),
                Long.parseLong(fields[16 - 3]) + Long.parseLong(fields[17 - 3]), Long.parseLong(fields[22 - 3]));
    }

    /** The process's reading, or empty when it is gone (or not readable). */
    static Optional<Process> read(long pid) {
        try {
            return Optional.of(parse(Files.readString(PROC.resolve(String.valueOf(pid)).resolve("stat"), StandardCharsets.UTF_8)));
        }
        catch (IOException | RuntimeException ex) {
            return Optional.empty();
        }
    }

    /**
     * The ticks of the process's JIT compiler threads: HotSpot's {@code C1 CompilerThread<n>} and
     * {@code C2 CompilerThread<n>} ({@code comm} cuts names at 15 characters), read from {@code /proc/PID/task/*}/stat.
     * Zero for a process without them (not a JVM) or gone.
     */
    static long compilerTicks(long pid) {
        long ticks = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(PROC.resolve(String.valueOf(pid)).resolve("task"))) {
            for (Path task : tasks) {
                try {
                    Process thread = parse(Files.readString(task.resolve("stat"), StandardCharsets.UTF_8));
                    if (isCompilerThread(thread.comm())) {
                        ticks += thread.ticks();
                    }
                }
                catch (IOException | RuntimeException ex) {
                    // the thread ended meanwhile
                }
            }
        }
        catch (IOException | RuntimeException ex) {
            return 0;
        }
        return ticks;
    }

    /** A HotSpot JIT compiler thread's name as {@code /proc} gives it. */
    static boolean isCompilerThread(String comm) {
        return comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler");
    }

    /** This JVM's own reading. */
    static Process self() {
        return read(ProcessHandle.current().pid()).orElseThrow(() -> new IllegalStateException("no /proc/self/stat: not Linux?"));
    }

    /** Parses the first line of {@code /proc/stat}: {@code cpu user nice system idle iowait irq softirq steal …}. */
    static Machine parseMachine(String line) {
        String[] fields = line.strip().split("\\s+");
        if (!fields[0].equals("cpu") || fields.length < 9) {
            throw new IllegalArgumentException("not the first line of /proc/stat: " + line);
        }
        long[] values = new long[8];
        for (int i = 0; i < values.length; i++) {
            values[i] = Long.parseLong(fields[i + 1]);
        }
        return new Machine(values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7]);
    }

    static Machine machine() {
        try {
            return parseMachine(Files.readAllLines(PROC.resolve("stat"), StandardCharsets.UTF_8).get(0));
        }
        catch (IOException ex) {
            throw new IllegalStateException("cannot read /proc/stat: " + ex.getMessage(), ex);
        }
    }

    /** {@code getconf CLK_TCK}; 100 (what Linux has used for decades) when it cannot be asked. */
    static long clockTicksPerSecond() {
        try {
            java.lang.Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String answer = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
            if (getconf.waitFor(10, TimeUnit.SECONDS) && getconf.exitValue() == 0) {
                return Long.parseLong(answer);
            }
        }
        catch (IOException | NumberFormatException ex) {
            // below
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        return 100;
    }

    /**
     * The inodes of the sockets listening on the port in a {@code /proc/net/tcp} or {@code tcp6} table (state
     * {@code 0A}, local address {@code ADDRESS:PORT} with the port in hex).
     */
    static Set<Long> listeningInodes(List<String> table, int port) {
        Set<Long> inodes = new HashSet<>();
        for (String line : table) {
            String[] fields = line.strip().split("\\s+");
            // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
            if (fields.length < 10 || !fields[0].endsWith(":")) {
                continue;
            }
            String local = fields[1];
            int colon = local.lastIndexOf(':');
            if (colon < 0 || !fields[3].equals("0A")) {
                continue;
            }
            if (Integer.parseInt(local.substring(colon + 1), 16) == port) {
                inodes.add(Long.parseLong(fields[9]));
            }
        }
        inodes.remove(0L);
        return inodes;
    }

    /**
     * The process that listens on the TCP port: the socket's inode from {@code /proc/net/tcp(6)}, then the process
     * holding {@code socket:[inode]} among its file descriptors. Empty when nothing listens there or when the owner's
     * descriptors cannot be read (another user's process, without root).
     */
    static OptionalLong listeningPid(int port) {
        Set<Long> inodes = new HashSet<>();
        for (String table : List.of("tcp", "tcp6")) {
            try {
                inodes.addAll(listeningInodes(Files.readAllLines(PROC.resolve("net").resolve(table), StandardCharsets.US_ASCII), port));
            }
            catch (IOException ex) {
                // no IPv6 table, say
            }
        }
        if (inodes.isEmpty()) {
            return OptionalLong.empty();
        }
        Set<String> wanted = new HashSet<>();
        inodes.forEach(inode -> wanted.add("socket:[" + inode + "]"));
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(PROC, name -> name.getFileName().toString().matches("\\d+"))) {
            for (Path process : processes) {
                if (holdsOneOf(process.resolve("fd"), wanted)) {
                    return OptionalLong.of(Long.parseLong(process.getFileName().toString()));
                }
            }
        }
        catch (IOException ex) {
            return OptionalLong.empty();
        }
        return OptionalLong.empty();
    }

    private static boolean holdsOneOf(Path fdDir, Set<String> wanted) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(fdDir)) {
            for (Path fd : fds) {
                try {
                    if (wanted.contains(Files.readSymbolicLink(fd).toString())) {
                        return true;
                    }
                }
                catch (IOException | UnsupportedOperationException ex) {
                    // closed meanwhile
                }
            }
        }
        catch (IOException | SecurityException ex) {
            // gone, or not ours to read
        }
        return false;
    }
}
