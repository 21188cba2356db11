package dev.lunchrush.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The hostile clients that come and go, against one port: pipelined garbage (request lines and random bytes, 256 KB
 * on one connection) and requests with 1 MB of headers. Each is sent, then read until the server closes the
 * connection or 15 s pass; what the server did is counted by its first status line ({@code closed} without one,
 * {@code open} when it neither answered nor closed).
 */
final class OddClients {

    static final int GARBAGE = 20;
    static final int HUGE_HEADERS = 5;
    private static final int GARBAGE_BYTES = 256 * 1024;
    private static final int HEADER_BYTES = 1024 * 1024;
    private static final int READ_LIMIT_MILLIS = 15_000;

    private OddClients() {
    }

    /** Sends them all to {@code port}, several at once; what the server did, by kind then outcome. */
    static Map<String, Map<String, Integer>> play(int port, long seed) {
        ExecutorService threads = Executors.newFixedThreadPool(8, runnable -> {
            Thread thread = new Thread(runnable, "chaos-odd-clients");
            thread.setDaemon(true);
            return thread;
        });
        List<Future<String>> garbage = new ArrayList<>();
        List<Future<String>> headers = new ArrayList<>();
        Random random = new Random(seed);
        for (int i = 0; i < GARBAGE; i++) {
            byte[] bytes = garbage(random);
            garbage.add(threads.submit(() -> exchange(port, bytes)));
        }
        byte[] huge = hugeHeaders(port);
        for (int i = 0; i < HUGE_HEADERS; i++) {
            headers.add(threads.submit(() -> exchange(port, huge)));
        }
        Map<String, Map<String, Integer>> outcomes = new TreeMap<>();
        outcomes.put("pipelined garbage", tally(garbage));
        outcomes.put("1 MB of headers", tally(headers));
        threads.shutdownNow();
        return outcomes;
    }

    private static Map<String, Integer> tally(List<Future<String>> outcomes) {
        Map<String, Integer> counts = new TreeMap<>();
        for (Future<String> outcome : outcomes) {
            String what;
            try {
                what = outcome.get(READ_LIMIT_MILLIS + 20_000L, TimeUnit.MILLISECONDS);
            }
            catch (Exception ex) {
                what = "not played";
            }
            counts.merge(what, 1, Integer::sum);
        }
        return counts;
    }

    private static byte[] garbage(Random random) {
        StringBuilder text = new StringBuilder();
        while (text.length() < GARBAGE_BYTES) {
            switch (random.nextInt(4)) {
                case 0 -> text.append("GET /actuator/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
                case 1 -> text.append("POST /orders HTTP/1.1\r\nContent-Length: -5\r\n\r\n");
                case 2 -> text.append("\u0000\u0001 GARBAGE ").append(random.nextLong()).append("\r\n");
                default -> {
                    for (int i = 0; i < 64; i++) {
                        text.append((char) random.nextInt(256));
                    }
                }
            }
        }
        return text.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] hugeHeaders(int port) {
        StringBuilder text = new StringBuilder("GET /actuator/health HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n");
        for (int i = 0; text.length() < HEADER_BYTES; i++) {
            text.append("X-Filler-").append(i).append(": ").append("y".repeat(1000)).append("\r\n");
        }
        return text.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Writes {@code bytes} (as far as the server takes them), then reads: the first status code, or what happened. */
    private static String exchange(int port, byte[] bytes) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(READ_LIMIT_MILLIS);
            Thread reader = null;
            String[] status = {null};
            InputStream in = socket.getInputStream();
            reader = new Thread(() -> status[0] = readStatus(in), "chaos-odd-reader");
            reader.setDaemon(true);
            reader.start();
            try {
                OutputStream out = socket.getOutputStream();
                out.write(bytes);
                out.flush();
            }
            catch (IOException ex) {
                // the server closed while we wrote: what it answered first, if anything, is read below
            }
            reader.join(READ_LIMIT_MILLIS + 5_000L);
            return status[0] == null ? "open" : status[0];
        }
        catch (IOException ex) {
            return "not connected";
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /** The first answer's status code, then the rest read until the server closes; "open" when it neither closes nor answers in time. */
    private static String readStatus(InputStream in) {
        byte[] buffer = new byte[8192];
        String status = null;
        try {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                if (status == null && read >= 12) {
                    String line = new String(buffer, 0, 12, StandardCharsets.US_ASCII);
                    status = line.startsWith("HTTP/1.") ? line.substring(9, 12) + " then closed" : "bytes";
                }
            }
            return status == null ? "closed" : status;
        }
        catch (SocketTimeoutException ex) {
            return status == null ? "open" : status.replace("then closed", "kept open");
        }
        catch (IOException ex) {
            return status == null ? "closed" : status;
        }
    }
}
