package dev.lunchrush.scenarios;

import java.net.ConnectException;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import dev.lunchrush.events.Menu;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.events.SampleOrders;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Orders placed at a steady rate while something fails, each request's outcome sorted as a fault test's
 * oracle needs it: acknowledged (201, by order id), refused (503), unanswered (sent, no answer: its outcome
 * is unknown), not connected (nothing reached the service, nothing written), anything else. At most 16
 * requests are in flight; beyond that the orders wait their turn in the stream, not on the service.
 */
final class OrderStream {

    final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    final AtomicLong refused = new AtomicLong();
    final AtomicLong unanswered = new AtomicLong();
    final AtomicLong notConnected = new AtomicLong();
    final Queue<String> otherAnswers = new ConcurrentLinkedQueue<>();
    /** The longest any request took to be answered or to fail, ms. */
    final AtomicLong slowestMillis = new AtomicLong();

    private final Stack stack;

    OrderStream(Stack stack) {
        this.stack = stack;
    }

    /** Orders at {@code perSecond} until {@code done} says so (at most 5 minutes); returns how many were sent. */
    long run(double perSecond, long seed, BooleanSupplier done) {
        SampleOrders samples = new SampleOrders(Orders.menu(stack), new SplittableRandom(seed));
        ExecutorService executor = Executors.newFixedThreadPool(16);
        long intervalNanos = (long) (1e9 / perSecond);
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MINUTES.toNanos(5);
        long sent = 0;
        try {
            while (!done.getAsBoolean() && System.nanoTime() < deadline) {
                LockSupport.parkNanos(start + sent * intervalNanos - System.nanoTime());
                OrderRequest request = samples.next();
                executor.submit(() -> send(request));
                sent++;
            }
            executor.shutdown();
            assertThat(executor.awaitTermination(60, TimeUnit.SECONDS)).as("requests finished").isTrue();
            return sent;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
        finally {
            executor.shutdownNow();
        }
    }

    String summary(long sent) {
        return "%d orders sent: %d acknowledged (201), %d refused (503), %d without an answer, %d could not connect"
                .formatted(sent, acknowledged.size(), refused.get(), unanswered.get(), notConnected.get());
    }

    private void send(OrderRequest request) {
        long started = System.nanoTime();
        try {
            var response = stack.post("order-service", "/orders", Stack.JSON.writeValueAsString(request), Map.of());
            if (response.statusCode() == 201) {
                acknowledged.add(Stack.JSON.readTree(response.body()).path("orderId").asString());
            }
            else if (response.statusCode() == 503) {
                refused.incrementAndGet();
            }
            else {
                otherAnswers.add(response.statusCode() + ": " + response.body());
            }
        }
        catch (RuntimeException ex) {
            if (causedBy(ex, ConnectException.class)) {
                notConnected.incrementAndGet();
            }
            else {
                unanswered.incrementAndGet();
            }
        }
        finally {
            slowestMillis.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), Math::max);
        }
    }

    private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
        }
        return false;
    }
}
