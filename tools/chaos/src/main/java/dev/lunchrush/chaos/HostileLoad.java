package dev.lunchrush.chaos;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The held part of the hostile clients, all on one thread and one selector: per target, connections that send a
 * request's headers declaring a 64 KB body and then nothing, connections that send that body one byte a second, and
 * connections that send a request line and then one header byte every {@link #HEADER_BYTE_EVERY}, never ending their
 * headers (a slowloris: each byte restarts a read timeout, only a deadline on the headers ends them). A connection the
 * server lets go (a 408, or closed) is counted and opened again, so that the pressure stays for the whole hold: at once
 * when it was held {@link #REOPEN_AFTER} or longer, else when that much has passed since it was opened. The attack is
 * held connections, as many as the server lets a client hold, not a flood of new ones: a server that answers and closes
 * a connection at once (Tomcat, for a body nobody reads) would otherwise be sent a new one as fast as a core can open
 * them, another attack (of rate, which a proxy in front bounds). The connections are first opened over
 * {@link #REOPEN_AFTER}: all are held from then on. At the end, every connection is closed. 127.0.0.1 only.
 */
final class HostileLoad implements AutoCloseable {

    static final int DECLARED = 64 * 1024;

    /** A connection let go is opened again this long after it was opened at the earliest (the servers' timeouts). */
    static final Duration REOPEN_AFTER = Duration.ofSeconds(10);

    static final Duration HEADER_BYTE_EVERY = Duration.ofSeconds(2);

    /** How often the connections' clocks are looked at: their bytes go out spread over this many slots a second. */
    static final Duration TRICKLE_TICK = Duration.ofMillis(50);

    /**
     * Where to send and how many: {@code idle} that send nothing after the headers, {@code slow} a body byte a second,
     * {@code trickled} a header byte every {@link #HEADER_BYTE_EVERY}.
     */
    record Target(String name, int port, int idle, int slow, int trickled) {
    }

    private enum Kind { IDLE, SLOW, TRICKLED }

    /** What the servers did to one target's connections. */
    static final class Counts {
        final AtomicLong opened = new AtomicLong();
        final AtomicLong notConnected = new AtomicLong();
        final AtomicLong answered408 = new AtomicLong();
        final AtomicLong answeredOther = new AtomicLong();
        final AtomicLong closedByServer = new AtomicLong();
        /** trickled connections let go that were opened after {@link #judgeFromNow()} */
        final AtomicLong trickledLetGo = new AtomicLong();
        /** the longest such a trickled connection was held, let go or still open at the end */
        final AtomicLong longestTrickledNanos = new AtomicLong();
        /** the longest a trickled connection opened before {@link #judgeFromNow()} (in the warm-up) was held */
        final AtomicLong warmUpLongestTrickledNanos = new AtomicLong();
    }

    private final class Held {
        final Target target;
        final Counts counts;
        final Kind kind;
        SocketChannel channel;
        long openedAt;
        /**
         * When the server took the connection and its first bytes went out: the header deadline counts from the
         * request's first byte, and a connect the server's backlog dropped is tried again by the kernel (1 s, 3 s, …)
         * before the server ever sees the request.
         */
        long sentAt;
        long due;
        boolean answered;
        int bodySent;
        /** When this connection sends its next byte (a slow one's body byte, a trickled one's header byte). */
        long nextByteAt;

        Held(Target target, Counts counts, Kind kind) {
            this.target = target;
            this.counts = counts;
            this.kind = kind;
        }
    }

    private final List<Target> targets;
    private final List<Counts> counts = new ArrayList<>();
    private final List<Held> held = new ArrayList<>();
    private final PriorityQueue<Held> toOpen = new PriorityQueue<>(Comparator.comparingLong(held -> held.due));
    private final Selector selector;
    private final ByteBuffer scratch = ByteBuffer.allocate(8192);
    private final Thread thread;
    private volatile boolean stopping;
    /** Trickled connections whose first byte went out before this are the warm-up's: held, not judged. */
    private volatile long judgedFrom;
    private volatile boolean judging;

    HostileLoad(List<Target> targets) throws IOException {
        this.targets = targets;
        this.selector = Selector.open();
        for (Target target : targets) {
            Counts targetCounts = new Counts();
            counts.add(targetCounts);
            int count = target.idle() + target.slow() + target.trickled();
            for (int i = 0; i < count; i++) {
                Kind kind = i < target.idle() ? Kind.IDLE : i < target.idle() + target.slow() ? Kind.SLOW : Kind.TRICKLED;
                Held connection = new Held(target, targetCounts, kind);
                // the first connections are opened evenly over REOPEN_AFTER (reckoned from the start): held from then
                // on, they are let go and opened again spread out as they came, not as one wave every 10 s
                connection.due = REOPEN_AFTER.toNanos() * i / count;
                held.add(connection);
                toOpen.add(connection);
            }
        }
        this.thread = new Thread(this::loop, "chaos-hostile");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /**
     * The trickled connections opened from now on are judged apart from those before: a server's deadline is kept
     * only as well as its machine lets it run, and a warm-up of six JVMs compiling on two cores is not the hold.
     */
    void judgeFromNow() {
        judgedFrom = System.nanoTime();
        judging = true;
    }

    Counts counts(Target target) {
        return counts.get(targets.indexOf(target));
    }

    private static byte[] head(Held connection) {
        String host = "Host: 127.0.0.1:" + connection.target.port() + "\r\n";
        return (connection.kind == Kind.TRICKLED ? "GET /actuator/health HTTP/1.1\r\n" + host + "X-Trickle: "
                : "POST /orders HTTP/1.1\r\n" + host + "Content-Type: application/json\r\nContent-Length: " + DECLARED
                        + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    private void loop() {
        long start = System.nanoTime();
        for (Held connection : held) {
            connection.due += start;
        }
        long lastTrickle = start;
        try {
            while (!stopping) {
                // at most 500 connects a turn: a wave of connections let go at once is opened again over a few turns
                long now = System.nanoTime();
                for (int i = 0; i < 500 && !toOpen.isEmpty() && toOpen.peek().due <= now; i++) {
                    open(toOpen.poll());
                }
                selector.select(100);
                for (SelectionKey key : selector.selectedKeys()) {
                    Held connection = (Held) key.attachment();
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isConnectable()) {
                        connected(key, connection);
                    }
                    else if (key.isReadable()) {
                        read(connection);
                    }
                }
                selector.selectedKeys().clear();
                // a look at the connections' clocks every TRICKLE_TICK, not on every turn: a turn comes as often as
                // the servers let connections go, and each look walks every connection
                if (System.nanoTime() - lastTrickle >= TRICKLE_TICK.toNanos()) {
                    lastTrickle = System.nanoTime();
                    trickle(lastTrickle);
                }
            }
        }
        catch (IOException ex) {
            // the selector itself failed: the load ends, the probes still judge
        }
        finally {
            for (Held connection : held) {
                if (connection.kind == Kind.TRICKLED && connection.channel != null && connection.sentAt != 0) {
                    held(connection);
                }
                closeQuietly(connection);
            }
            try {
                selector.close();
            }
            catch (IOException ex) {
                // closing anyway
            }
        }
    }

    private void open(Held connection) {
        try {
            SocketChannel channel = SocketChannel.open();
            channel.configureBlocking(false);
            connection.channel = channel;
            connection.openedAt = System.nanoTime();
            connection.sentAt = 0;
            connection.answered = false;
            connection.bodySent = 0;
                        if (channel.connect(new InetSocketAddress("127.0.0.1", connection.target.port()))) {
                sendHead(connection);
                channel.register(selector, SelectionKey.OP_READ, connection);
            }
            else {
                channel.register(selector, SelectionKey.OP_CONNECT, connection);
            }
        }
        catch (IOException ex) {
            connection.counts.notConnected.incrementAndGet();
            closeQuietly(connection);
        }
    }

    private void connected(SelectionKey key, Held connection) {
        try {
            connection.channel.finishConnect();
            sendHead(connection);
            key.interestOps(SelectionKey.OP_READ);
        }
        catch (IOException ex) {
            connection.counts.notConnected.incrementAndGet();
            closeQuietly(connection);
            reopenLater(connection);
        }
    }

    private void sendHead(Held connection) throws IOException {
        connection.sentAt = System.nanoTime();
        connection.channel.write(ByteBuffer.wrap(head(connection)));
        connection.nextByteAt = connection.sentAt + byteEvery(connection.kind);
        connection.counts.opened.incrementAndGet();
    }

    private void read(Held connection) {
        try {
            scratch.clear();
            int read = connection.channel.read(scratch);
            if (read > 0 && !connection.answered) {
                connection.answered = true;
                String start = new String(scratch.array(), 0, Math.min(read, 12), StandardCharsets.US_ASCII);
                (start.startsWith("HTTP/1.1 408") ? connection.counts.answered408 : connection.counts.answeredOther)
                        .incrementAndGet();
            }
            if (read < 0) {
                letGo(connection);
            }
        }
        catch (IOException ex) {
            letGo(connection);
        }
    }

    /**
     * A byte to each slow or trickled connection whose time has come. Each connection keeps its own clock from its
     * opening, as independent clients would: the connections were opened spread out, so are their bytes, and no
     * server is sent one wave of every connection's byte at the same instant.
     */
    private void trickle(long now) {
        ByteBuffer one = ByteBuffer.allocate(1);
        for (Held connection : held) {
            boolean sends = connection.kind == Kind.SLOW ? connection.bodySent < DECLARED - 1
                    : connection.kind == Kind.TRICKLED;
            if (!sends || connection.channel == null || !connection.channel.isConnected() || connection.nextByteAt > now) {
                continue;
            }
            connection.nextByteAt += byteEvery(connection.kind);
            try {
                one.clear();
                one.put((byte) (connection.kind == Kind.SLOW ? ' ' : 'a')).flip();
                connection.bodySent += connection.channel.write(one);
            }
            catch (IOException ex) {
                letGo(connection);
            }
        }
    }

    private static long byteEvery(Kind kind) {
        return kind == Kind.TRICKLED ? HEADER_BYTE_EVERY.toNanos() : Duration.ofSeconds(1).toNanos();
    }

    private void letGo(Held connection) {
        connection.counts.closedByServer.incrementAndGet();
        if (connection.kind == Kind.TRICKLED && connection.sentAt != 0 && held(connection)) {
            connection.counts.trickledLetGo.incrementAndGet();
        }
        closeQuietly(connection);
        if (!stopping) {
            reopenLater(connection);
        }
    }

    /** Counts how long a trickled connection was held; true when it is judged (not the warm-up's). */
    private boolean held(Held connection) {
        boolean judged = judging && connection.sentAt - judgedFrom >= 0;
        (judged ? connection.counts.longestTrickledNanos : connection.counts.warmUpLongestTrickledNanos)
                .accumulateAndGet(System.nanoTime() - connection.sentAt, Math::max);
        return judged;
    }

    private void reopenLater(Held connection) {
        connection.due = connection.openedAt + REOPEN_AFTER.toNanos();
        toOpen.add(connection);
    }

    private static void closeQuietly(Held connection) {
        if (connection.channel != null) {
            try {
                connection.channel.close();
            }
            catch (IOException ex) {
                // gone already
            }
            connection.channel = null;
        }
    }

    /** Stops the load and closes every connection (within a few seconds). */
    @Override
    public void close() {
        stopping = true;
        selector.wakeup();
        try {
            thread.join(Duration.ofSeconds(30).toMillis());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
