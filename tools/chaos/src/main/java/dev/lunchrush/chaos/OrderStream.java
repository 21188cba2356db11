package dev.lunchrush.chaos;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import tools.jackson.core.JacksonException;

import dev.lunchrush.load.menu.Menu;
import dev.lunchrush.load.menu.SampleOrders;
import dev.lunchrush.localstack.access.OrderServiceClient;
import dev.lunchrush.localstack.access.ServiceClient;

/**
 * Orders placed at a steady rate while something fails (by the fault suite, and by the scenario tests that fail
 * something under a stream), each request's outcome sorted as the oracle needs it:
 * acknowledged (201, by order id), refused (503), unanswered (sent, no answer or a broken connection: its outcome
 * is unknown), not connected (nothing reached the service, so nothing was written), anything else (kept by status).
 * At most {@value #IN_FLIGHT} requests are in flight; the rest wait their turn in the stream.
 */
public final class OrderStream implements AutoCloseable {

    static final int IN_FLIGHT = 32;
    /** How long a request may stay unanswered before it counts as a hang (its outcome unknown). */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    public final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    public final AtomicLong refused = new AtomicLong();
    public final AtomicLong unanswered = new AtomicLong();
    public final AtomicLong notConnected = new AtomicLong();
    /** Answers other than 201 and 503: how many of each status. */
    public final Map<Integer, AtomicLong> otherAnswers = new ConcurrentHashMap<>();
    public final AtomicLong sent = new AtomicLong();
    /** The longest any request took to be answered or to fail, ms. */
    public final AtomicLong slowestMillis = new AtomicLong();

    private final OrderServiceClient orderService;
    private final ExecutorService requests = Executors.newFixedThreadPool(IN_FLIGHT);
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final Thread pacer;

    private OrderStream(URI orderService, Menu menu, double perSecond, long seed) {
        this.orderService = new OrderServiceClient(new ServiceClient(OrderServiceClient.NAME, orderService, () -> "",
                Duration.ofSeconds(2), REQUEST_TIMEOUT));
        SampleOrders samples = new SampleOrders(menu, new Random(seed));
        long intervalNanos = (long) (1e9 / perSecond);
        this.pacer = new Thread(() -> {
            long start = System.nanoTime();
            for (long n = 0; !stopping.get(); n++) {
                LockSupport.parkNanos(start + n * intervalNanos - System.nanoTime());
                byte[] body = ServiceClient.JSON.writeValueAsBytes(samples.next());
                requests.execute(() -> send(body));
                sent.incrementAndGet();
            }
        }, "chaos-orders");
        pacer.setDaemon(true);
    }

    /** Places orders for {@code menu} at {@code perSecond} on the order service at {@code orderService} until closed. */
    public static OrderStream start(URI orderService, Menu menu, double perSecond, long seed) {
        OrderStream stream = new OrderStream(orderService, menu, perSecond, seed);
        stream.pacer.start();
        return stream;
    }

    /**
     * Stops placing orders and waits for every request in flight to end; false when some did not end in time
     * (they are abandoned).
     */
    public boolean stop() {
        stopping.set(true);
        try {
            pacer.join(TimeUnit.SECONDS.toMillis(10));
            requests.shutdown();
            if (!requests.awaitTermination(REQUEST_TIMEOUT.toSeconds() + 30, TimeUnit.SECONDS)) {
                requests.shutdownNow();
                return false;
            }
            return true;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            requests.shutdownNow();
            return false;
        }
    }

    /** {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }

    /** How many answers were neither 201 nor 503. */
    public long others() {
        return otherAnswers.values().stream().mapToLong(AtomicLong::get).sum();
    }

    public String summary() {
        return "%d sent: %d × 201, %d × 503, %d unanswered, %d not connected%s".formatted(sent.get(), acknowledged.size(),
                refused.get(), unanswered.get(), notConnected.get(), otherAnswers.isEmpty() ? "" : ", other answers " + otherAnswers);
    }

    private void send(byte[] body) {
        long started = System.nanoTime();
        try {
            ServiceClient.Attempt answer = orderService.tryPlace(body);
            if (!answer.connected()) {
                notConnected.incrementAndGet();
            }
            else if (answer.status() == 0) {
                unanswered.incrementAndGet();
            }
            else if (answer.status() == 201) {
                acknowledged.add(ServiceClient.JSON.readTree(answer.body()).path("orderId").asString());
            }
            else if (answer.status() == 503) {
                refused.incrementAndGet();
            }
            else {
                otherAnswers.computeIfAbsent(answer.status(), status -> new AtomicLong()).incrementAndGet();
            }
        }
        catch (JacksonException ex) {
            unanswered.incrementAndGet();
        }
        finally {
            slowestMillis.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), Math::max);
        }
    }
}
