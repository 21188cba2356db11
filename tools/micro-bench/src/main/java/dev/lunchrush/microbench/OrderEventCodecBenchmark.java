package dev.lunchrush.microbench;

import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.events.OrderTally;
import dev.lunchrush.load.menu.Menu;
import dev.lunchrush.load.menu.SampleOrders;

/**
 * The order event's JSON, written once per order by the order service and read once per order by every reader:
 * what one encode and one decode cost, alone in a JVM, on the orders the rush sends.
 *
 * <pre>
 * java -jar tools/micro-bench/target/micro-bench.jar OrderEventCodec
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class OrderEventCodecBenchmark {

    private static final int ORDERS = 1024;

    private final OrderEvent[] events = new OrderEvent[ORDERS];
    private final byte[][] encoded = new byte[ORDERS][];
    private int next;

    @Setup
    public void orders() {
        Menu menu = new Menu(List.of(
                new Menu.Kitchen("k1", "Pasta Place", List.of("carbonara", "arrabbiata", "lasagne", "pesto")),
                new Menu.Kitchen("k2", "Curry House", List.of("korma", "dal", "biryani", "naan")),
                new Menu.Kitchen("k3", "Green Bowl", List.of("falafel", "hummus", "tabbouleh", "soup"))));
        SampleOrders samples = new SampleOrders(menu, new Random(42));
        Instant placedAt = Instant.parse("2026-11-26T12:21:07.120Z");
        for (int i = 0; i < ORDERS; i++) {
            OrderRequest request = samples.next();
            events[i] = new OrderEvent("0193" + Integer.toHexString(0x1000_0000 + i) + "-5b7d-7e0f-9a1b-2c3d4e5f6a7b",
                    placedAt.plusMillis(i), request.kitchenId(), request.customerId(), request.items(),
                    request.deliveryAddress(), request.notes(), OrderEvent.ORIGIN_LIVE,
                    "5b7d4e0f-1c2a-4e0f-9a1b-2c3d4e5f6a7b", i + 1L);
            encoded[i] = OrderEventCodec.encode(events[i]);
        }
    }

    @Benchmark
    public byte[] encode() {
        return OrderEventCodec.encode(events[next++ & (ORDERS - 1)]);
    }

    @Benchmark
    public OrderEvent decode() {
        return OrderEventCodec.decode(encoded[next++ & (ORDERS - 1)]);
    }

    @Benchmark
    public OrderTally decodeTally() {
        byte[] json = encoded[next++ & (ORDERS - 1)];
        return OrderEventCodec.decodeTally(json, 0, json.length);
    }
}
