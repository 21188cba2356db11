package dev.lunchrush.orderservice.feed;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;

import dev.lunchrush.events.FeedStrategy;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderItem;
import dev.lunchrush.orderservice.OrderServiceTests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a pull of the feed holds besides the feed (act 3's budget is the heap's room over what is alive, and
 * the feed is meant to be what fills it): bounded and small, whatever the pull's {@code max} and however
 * slowly its reader reads. Measured while a reader that asked for 10,000 events stalls: the heap after a full
 * collection against the feed's bytes, plus the server's network buffers (Netty's direct memory). What the
 * kernel's socket buffers took (up to a few MB on the loopback) is the operating system's, not the service's.
 */
class FeedPullMemoryTests extends OrderServiceTests {

    private static final int EVENTS = 20_000;
    private static final long MB = 1 << 20;

    private final AtomicLong sequence = new AtomicLong(900_000_000);

    @Autowired
    OrderFeed feed;

    @BeforeEach
    @AfterEach
    void emptyFeed() {
        while (json(pullFeed("max=10000&waitMillis=0").body()).size() > 0) {
            // drained chunk by chunk
        }
    }

    @Test
    void aStalledPullOfTenThousandHoldsLittleOutsideTheFeed() throws Exception {
        fill();
        long bytesBefore = feed.figures().bufferedBytes();
        long eventBytes = bytesBefore / EVENTS;
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        ByteBufAllocatorMetric network = ((ByteBufAllocatorMetricProvider) ByteBufAllocator.DEFAULT).metric();
        System.gc();
        long heapBefore = memory.getHeapMemoryUsage().getUsed();
        long networkBefore = network.usedDirectMemory() + network.usedHeapMemory();

        long held;
        try (Socket reader = new Socket()) {
            // a reader that asks for 10,000 events, reads the first bytes and then nothing
            reader.setReceiveBufferSize(16 * 1024);
            reader.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            reader.setSoTimeout(10_000);
            OutputStream out = reader.getOutputStream();
            out.write(("GET /feed?max=10000&waitMillis=0 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: "
                    + basic("admin", ADMIN_PASSWORD) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = reader.getInputStream();
            int read = in.readNBytes(new byte[4096], 0, 4096);
            assertThat(read).isPositive();
            // the server writes until the connection's buffers are full, then stops: wait until the feed stays put
            AtomicLong last = new AtomicLong(-1);
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
                long now = feed.figures().bufferedBytes();
                return last.getAndSet(now) == now;
            });
            long taken = bytesBefore - feed.figures().bufferedBytes();
            System.gc();
            long heapHeld = memory.getHeapMemoryUsage().getUsed() - (heapBefore - taken);
            long networkHeld = network.usedDirectMemory() + network.usedHeapMemory() - networkBefore;
            held = heapHeld + networkHeld;
            System.out.printf("stalled pull of 10,000 (%d B an event): %.2f MB left the feed, %.2f MB reached the reader; "
                    + "held by the service besides the feed: heap after GC %.2f MB + network buffers %.2f MB%n", eventBytes,
                    taken / (double) MB, read / (double) MB, heapHeld / (double) MB, networkHeld / (double) MB);
        }
        // at most 128 chunks of 8 events (~1 MB) queued by the server, whatever the pull's max; a whole batch is ~10 MB
        assertThat(held).as("bytes held besides the feed by a stalled pull (its whole batch: %d)", 10_000 * eventBytes)
                .isLessThan(4 * MB);
    }

    @Test
    void pullsOfTenThousandHandOutEveryEventOnceInOrderAsOneJsonArray() {
        fill();
        long delivered = 0;
        long previous = -1;
        Instant started = Instant.now();
        while (true) {
            HttpResponse<String> response = pullFeed("max=10000&waitMillis=0");
            assertThat(response.statusCode()).isEqualTo(200);
            JsonNode events = json(response.body());
            assertThat(events.isArray()).isTrue();
            assertThat(events.size()).isLessThanOrEqualTo(10_000);
            if (events.isEmpty()) {
                break;
            }
            for (JsonNode event : events) {
                long seq = event.get("sequence").longValue();
                assertThat(seq).isGreaterThan(previous);
                previous = seq;
            }
            delivered += events.size();
        }
        assertThat(delivered).isEqualTo(EVENTS);
        assertThat(Duration.between(started, Instant.now())).isLessThan(Duration.ofSeconds(60));
    }

    private void fill() {
        for (int i = 0; i < EVENTS; i++) {
            feed.offer(FeedStrategy.UNBOUNDED, 0, this::event);
        }
        assertThat(feed.figures().buffered()).isEqualTo(EVENTS);
    }

    private OrderEvent event() {
        long seq = sequence.incrementAndGet();
        return new OrderEvent("00000000-0000-0000-0000-%012d".formatted(seq), Instant.parse("2026-11-26T12:20:00Z"),
                "k3", "c-1", List.of(new OrderItem("pad-thai", 2)), "12 Mill Lane", "x".repeat(700),
                OrderEvent.ORIGIN_LIVE, "run", seq);
    }
}
