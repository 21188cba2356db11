package dev.lunchrush.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for the servers a test starts (services, brokers, Prometheus), chosen below the system's ephemeral
 * range. A port the kernel handed out ({@code bind} to port 0) is one it may hand out again, to any socket:
 * between the moment a test picks it and the moment the server binds it, often seconds later when several
 * JVMs start at once, an outgoing connection of another process (a service to RabbitMQ, say) or a broker's
 * own port-0 listener can take it, and the server then dies of "address already in use". Below the
 * ephemeral range the kernel never hands a port out by itself, so only another explicit choice can take
 * it: each port is picked at random, checked free, and claimed with a file lock under the temporary folder
 * that this JVM holds until it exits, so that tests in other JVMs (Surefire's parallel forks) never pick it
 * too in the seconds before its server binds it.
 */
public final class FreePorts {

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    // Linux's default lower bound; also below the 49152 of macOS and Windows
    private static final int DEFAULT_EPHEMERAL_LOW = 32768;
    private static final int SPAN = 12000;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();
    private static final Path CLAIMS = Path.of(System.getProperty("java.io.tmpdir"), "lunchrush-ports");
    // held open (and locked) until this JVM exits; the operating system releases the locks then
    private static final List<FileChannel> HELD = new CopyOnWriteArrayList<>();
    private static final int[] RANGE = range(ephemeralLow());

    private FreePorts() {
    }

    /** A port that no socket holds now, outside the ephemeral range, not handed out before by any living JVM. */
    public static int next() {
        for (int attempt = 0; attempt < 500; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(RANGE[0], RANGE[1]);
            if (HANDED_OUT.add(port) && claim(port) && free(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port between " + RANGE[0] + " and " + (RANGE[1] - 1));
    }

    /** The ports to choose from, {@code [low, high)}: the {@value #SPAN} ports below the ephemeral range. */
    static int[] range(int ephemeralLow) {
        int high = Math.max(2048, Math.min(ephemeralLow, 65536));
        int low = Math.max(1024, high - SPAN);
        return new int[] {low, high};
    }

    /** The lower bound of the kernel's ephemeral ports, where the system says it. */
    static int ephemeralLow() {
        // read as a stream: Files.readString gets only the first byte of this /proc file on JDK 17
        try (BufferedReader reader = Files.newBufferedReader(EPHEMERAL_RANGE)) {
            String[] bounds = reader.readLine().trim().split("\\s+");
            return Integer.parseInt(bounds[0]);
        }
        catch (IOException | RuntimeException ex) {
            return DEFAULT_EPHEMERAL_LOW;
        }
    }

    // a lock on <tmp>/lunchrush-ports/<port>.lock: at most one living JVM holds it
    private static boolean claim(int port) {
        FileChannel channel = null;
        try {
            Files.createDirectories(CLAIMS);
            channel = FileChannel.open(CLAIMS.resolve(port + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            if (channel.tryLock() != null) {
                HELD.add(channel);
                return true;
            }
        }
        catch (OverlappingFileLockException ex) {
            // held by this JVM already
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot claim port " + port + " under " + CLAIMS, ex);
        }
        close(channel);
        return false;
    }

    private static void close(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            }
            catch (IOException ex) {
                // nothing held
            }
        }
    }

    // bound on every address, so that a server on any address, loopback included, makes the port taken
    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(port), 1);
            return true;
        }
        catch (IOException ex) {
            return false;
        }
    }
}
