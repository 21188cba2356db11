package dev.lunchrush.orderservice;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.lunchrush.testing.FreePorts;

/**
 * A TCP proxy on 127.0.0.1 in front of a real broker, which a test can make hold what the clients send (the bytes
 * wait in the proxy, and behind it in the sockets' buffers) and then let go: the broker then gets every byte, late
 * and in order, and answers as it always does. Only the connections through the proxy are slowed, not the
 * broker's other users: a publisher confirm that comes late, without stopping the machine's RabbitMQ. It can hold
 * the broker's answers instead (the broker has what the client sent, the client hears nothing), and cut every
 * connection through it, dropping what it holds: a connection lost before the client heard the broker's answer.
 */
public final class HoldingProxy implements AutoCloseable {

    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "holding-proxy");
        thread.setDaemon(true);
        return thread;
    });
    private final Object gate = new Object();
    private boolean holding;
    private boolean holdingReplies;

    private HoldingProxy(ServerSocket server, String targetHost, int targetPort) {
        this.server = server;
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        threads.execute(this::accept);
    }

    /** A proxy to {@code host:port}, listening on a free port of 127.0.0.1. */
    public static HoldingProxy to(String host, int port) {
        try {
            return new HoldingProxy(new ServerSocket(FreePorts.next(), 50, InetAddress.getLoopbackAddress()), host, port);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** From now on what the clients send waits in the proxy. */
    public void hold() {
        synchronized (gate) {
            holding = true;
        }
    }

    /** From now on what the broker sends back waits in the proxy (what the clients send goes on). */
    public void holdReplies() {
        synchronized (gate) {
            holdingReplies = true;
        }
    }

    /** What waits goes on, to the broker and to the clients, and so does what comes after. */
    public void release() {
        synchronized (gate) {
            holding = false;
            holdingReplies = false;
            gate.notifyAll();
        }
    }

    /**
     * Closes every connection through the proxy at once, both ends, and drops what it holds: neither the broker nor
     * the client gets another byte of them. New connections go through as before, held no longer.
     */
    public void cut() {
        for (Socket socket : sockets) {
            closeQuietly(socket);
            sockets.remove(socket);
        }
        release();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket broker = new Socket(targetHost, targetPort);
                sockets.add(client);
                sockets.add(broker);
                threads.execute(() -> pump(client, broker, true));
                threads.execute(() -> pump(broker, client, false));
            }
            catch (IOException ex) {
                // closed, or a client that went away at once
            }
        }
    }

    private void pump(Socket from, Socket to, boolean toBroker) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                awaitRelease(toBroker);
                if (to.isClosed()) {
                    // cut while it waited: what it held is dropped
                    break;
                }
                out.write(buffer, 0, read);
                out.flush();
            }
        }
        catch (IOException ex) {
            // one side closed: the other goes too
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void awaitRelease(boolean toBroker) throws InterruptedException {
        synchronized (gate) {
            while (toBroker ? holding : holdingReplies) {
                gate.wait();
            }
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        }
        catch (IOException ex) {
            // closing
        }
    }

    @Override
    public void close() {
        release();
        closeQuietly(server);
        sockets.forEach(HoldingProxy::closeQuietly);
        threads.shutdownNow();
    }

    private static void closeQuietly(ServerSocket socket) {
        try {
            socket.close();
        }
        catch (IOException ex) {
            // closing
        }
    }
}
