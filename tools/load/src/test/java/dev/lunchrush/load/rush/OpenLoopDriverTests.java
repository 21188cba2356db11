package dev.lunchrush.load.rush;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.lunchrush.lesson.RateProfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The rush's driver against a tiny local HTTP server that answers 201, 429 or 503 as told. */
class OpenLoopDriverTests {

    private HttpServer server;
    private ExecutorService serverThreads;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final AtomicLong bodies = new AtomicLong();
    private final List<DriverHttp> clients = new CopyOnWriteArrayList<>();

    private record Request(long nanos, String idempotencyKey, String body, String method) {
    }

    /** Starts the server; {@code answer} picks the status (and Retry-After) for each request. */
    private URI serve(Function<Request, Answer> answer) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
        serverThreads = Executors.newFixedThreadPool(8);
        server.setExecutor(serverThreads);
        server.createContext("/orders", exchange -> handle(exchange, answer));
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/orders");
    }

    private record Answer(int status, String retryAfter) {
    }

    /** Answers no status: closes the connection under the request. */
    private static final int DROP = -1;

    /** Requests being answered right now, and the most at once. */
    private final AtomicInteger concurrent = new AtomicInteger();
    private final AtomicInteger mostConcurrent = new AtomicInteger();
    /** The client ports the requests came from: one per connection. */
    private final Set<Integer> connections = ConcurrentHashMap.newKeySet();
    private volatile boolean closeEveryConnection;

    private void handle(HttpExchange exchange, Function<Request, Answer> answer) throws IOException {
        mostConcurrent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
        connections.add(exchange.getRemoteAddress().getPort());
        boolean counted = true;
        try (InputStream in = exchange.getRequestBody()) {
            String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Request request = new Request(System.nanoTime(),
                    String.valueOf(exchange.getRequestHeaders().getFirst("Idempotency-Key")), body, exchange.getRequestMethod());
            requests.add(request);
            Answer decision = answer.apply(request);
            // done before the answer leaves: the next request on the connection may reach another server thread first
            concurrent.decrementAndGet();
            counted = false;
            if (decision.status() == DROP) {
                // the server closes the connection when its handler fails, without a response
                throw new IOException("dropped by the test");
            }
            if (decision.retryAfter() != null) {
                exchange.getResponseHeaders().add("Retry-After", decision.retryAfter());
            }
            if (closeEveryConnection) {
                exchange.getResponseHeaders().add("Connection", "close");
            }
            exchange.sendResponseHeaders(decision.status(), -1);
        }
        finally {
            if (counted) {
                concurrent.decrementAndGet();
            }
            exchange.close();
        }
    }

    @AfterEach
    void stopServer() {
        clients.forEach(DriverHttp::close);
        if (server != null) {
            server.stop(0);
            serverThreads.shutdownNow();
        }
    }

    private OpenLoopDriver driver(URI uri, RateProfile profile) {
        return driver(uri, profile, Duration.ofSeconds(30), 500);
    }

    private OpenLoopDriver driver(URI uri, RateProfile profile, Duration requestTimeout, int maxInFlight) {
        DriverHttp http = new DriverHttp(requestTimeout);
        clients.add(http);
        return new OpenLoopDriver(http, uri, () -> ("{\"order\":" + bodies.incrementAndGet() + "}").getBytes(StandardCharsets.UTF_8),
                profile, 0, maxInFlight, Duration.ofSeconds(5));
    }

    /** Whether this JVM ran the warm-up already: the classes it loads and the code it compiles stay. */
    private static boolean warmedUp;

    /**
     * Class loading and the JIT are not the generator's rate: a short run first, not measured, once in the JVM (before
     * the first test that measures the rate, whichever it is).
     */
    private void warmUp(URI uri) {
        if (warmedUp) {
            return;
        }
        driver(uri, RateProfile.constant(300, Duration.ofSeconds(1), 1)).run();
        requests.clear();
        warmedUp = true;
    }

    @Test
    void sendsExactlyTheProfileAtTheAskedRate() throws IOException {
        URI uri = serve(request -> new Answer(201, null));
        warmUp(uri);
        RateProfile profile = RateProfile.constant(150, Duration.ofSeconds(4), 1);
        OpenLoopDriver driver = driver(uri, profile);
        List<Long> sends = new CopyOnWriteArrayList<>();
        driver.observeSends(sends::add);

        driver.run();

        assertThat(driver.counters().timeouts.sum() + driver.counters().errors.sum())
                .as("failed requests: %s", driver.counters().errorKinds).isZero();
        assertThat(requests).hasSize(600);
        assertThat(driver.counters().scheduled.sum()).isEqualTo(600);
        assertThat(driver.counters().accepted.sum()).isEqualTo(600);
        assertThat(requests.stream().map(Request::idempotencyKey).distinct()).hasSize(600);
        // the rate as sent, over the run: open loop, so late sends catch up and the rate holds
        double achieved = (sends.size() - 1) / ((sends.get(sends.size() - 1) - sends.get(0)) / 1e9);
        assertThat(achieved).isCloseTo(150.0, within(15.0));
        assertThat(GeneratorVerdict.of(profile, driver).achievedRate()).isCloseTo(150.0, within(15.0));
        // and as received: every order arrived within the profile's three seconds and a little
        long first = requests.stream().mapToLong(Request::nanos).min().orElseThrow();
        long last = requests.stream().mapToLong(Request::nanos).max().orElseThrow();
        assertThat((last - first) / 1e9).isBetween(3.6, 5.0);
    }

    @Test
    void retriesA429AfterItsRetryAfterWithTheSameKeyAndBody() throws IOException {
        Set<String> throttledOnce = ConcurrentHashMap.newKeySet();
        // every third new order is throttled once, with Retry-After 0.3 s; its retry is accepted
        AtomicLong seen = new AtomicLong();
        URI uri = serve(request -> {
            if (!throttledOnce.contains(request.idempotencyKey()) && seen.incrementAndGet() % 3 == 0) {
                throttledOnce.add(request.idempotencyKey());
                return new Answer(429, "0.3");
            }
            return new Answer(201, null);
        });
        OpenLoopDriver driver = driver(uri, RateProfile.constant(100, Duration.ofSeconds(2), 1));

        driver.run();

        DriverCounters counters = driver.counters();
        assertThat(counters.scheduled.sum()).isEqualTo(200);
        assertThat(counters.accepted.sum()).isEqualTo(200);
        assertThat(counters.throttled.sum()).isEqualTo(throttledOnce.size()).isBetween(60L, 70L);
        assertThat(counters.retried.sum()).isEqualTo(counters.throttled.sum());
        assertThat(requests).hasSize(200 + throttledOnce.size());
        Map<String, List<Request>> byKey = requests.stream().collect(Collectors.groupingBy(Request::idempotencyKey));
        assertThat(byKey).hasSize(200);
        for (String key : throttledOnce) {
            List<Request> attempts = new ArrayList<>(byKey.get(key));
            attempts.sort((a, b) -> Long.compare(a.nanos(), b.nanos()));
            assertThat(attempts).hasSize(2);
            assertThat(attempts.get(1).body()).isEqualTo(attempts.get(0).body());
            // Retry-After honoured: not before 0.3 s
            assertThat(attempts.get(1).nanos() - attempts.get(0).nanos()).isGreaterThanOrEqualTo(290_000_000L);
        }
        assertThat(byKey.values().stream().filter(list -> list.size() == 1)).hasSize(200 - throttledOnce.size());
    }

    @Test
    void counts503sAndDoesNotRetryThem() throws IOException {
        AtomicLong seen = new AtomicLong();
        URI uri = serve(request -> new Answer(seen.incrementAndGet() % 4 == 0 ? 503 : 201, null));
        OpenLoopDriver driver = driver(uri, RateProfile.constant(200, Duration.ofSeconds(1), 1));

        driver.run();

        assertThat(requests).hasSize(200);
        assertThat(driver.counters().unavailable.sum()).isEqualTo(50);
        assertThat(driver.counters().accepted.sum()).isEqualTo(150);
        assertThat(driver.counters().retried.sum()).isZero();
    }

    @Test
    void followsBothSegmentsOfATwoStepProfile() throws IOException {
        URI uri = serve(request -> new Answer(201, null));
        warmUp(uri);
        RateProfile profile = RateProfile.twoSteps("step", 100, Duration.ofSeconds(1), 400, Duration.ofSeconds(1), 1);
        OpenLoopDriver driver = driver(uri, profile);
        List<Long> sends = new CopyOnWriteArrayList<>();
        driver.observeSends(sends::add);

        driver.run();

        assertThat(driver.counters().timeouts.sum() + driver.counters().errors.sum())
                .as("failed requests: %s", driver.counters().errorKinds).isZero();
        assertThat(requests).hasSize(500);
        assertThat(sends).hasSize(500);
        // every order leaves at its intended time or later, never early: 100 over the first second, then 400/s
        long late = 0;
        for (int i = 0; i < sends.size(); i++) {
            long intended = intendedNanos(i);
            long actual = sends.get(i) - driver.startNanos();
            assertThat(actual).as("send %d", i).isGreaterThanOrEqualTo(intended);
            if (actual - intended > OpenLoopDriver.LATE_NANOS) {
                late++;
            }
        }
        // each segment at its own rate: the sends that left in the middle half second of each (the middle, so that a
        // pause of the machine at the step or at the end is not counted; jitter and catching up move sends within it)
        assertThat(sendsBetween(sends, driver.startNanos(), 0.25, 0.75)).as("sends at 100/s in 0.5 s").isBetween(40L, 60L);
        assertThat(sendsBetween(sends, driver.startNanos(), 1.25, 1.75)).as("sends at 400/s in 0.5 s").isBetween(160L, 240L);
        // the step happens at 1 s and the profile ends at 2 s, each within half a second
        assertThat((sends.get(100) - driver.startNanos()) / 1e9).as("first send at 400/s").isBetween(1.0, 1.5);
        assertThat((sends.get(499) - driver.startNanos()) / 1e9).as("last send").isBetween(1.9975, 2.5);
        // and the driver counts as late exactly the sends that left more than 50 ms after their time
        assertThat(driver.counters().lateSends.sum()).isEqualTo(late);
    }

    /** When the i-th order of {@code followsBothSegmentsOfATwoStepProfile} is due: 100/s for 1 s, then 400/s. */
    private static long intendedNanos(int i) {
        return i < 100 ? i * 10_000_000L : 1_000_000_000L + (i - 100) * 2_500_000L;
    }

    private static long sendsBetween(List<Long> sends, long startNanos, double fromSeconds, double toSeconds) {
        return sends.stream().mapToDouble(nanos -> (nanos - startNanos) / 1e9)
                .filter(seconds -> seconds >= fromSeconds && seconds < toSeconds).count();
    }

    @Test
    void resendsOnceWithTheSameKeyWhenTheConnectionIsDroppedUnderARequest() throws IOException {
        Set<String> dropped = ConcurrentHashMap.newKeySet();
        AtomicLong seen = new AtomicLong();
        // every fifth new order: the connection is closed under it, without an answer; its second try is accepted
        URI uri = serve(request -> {
            if (!dropped.contains(request.idempotencyKey()) && seen.incrementAndGet() % 5 == 0) {
                dropped.add(request.idempotencyKey());
                return new Answer(DROP, null);
            }
            return new Answer(201, null);
        });
        OpenLoopDriver driver = driver(uri, RateProfile.constant(100, Duration.ofSeconds(1), 1));

        driver.run();

        DriverCounters counters = driver.counters();
        assertThat(dropped).hasSize(20);
        assertThat(counters.reconnects.sum()).isEqualTo(20);
        assertThat(counters.accepted.sum()).isEqualTo(100);
        assertThat(counters.errors.sum()).as("failed: %s", counters.errorKinds).isZero();
        Map<String, List<Request>> byKey = requests.stream().collect(Collectors.groupingBy(Request::idempotencyKey));
        assertThat(byKey).hasSize(100);
        for (String key : dropped) {
            assertThat(byKey.get(key)).hasSize(2);
            assertThat(byKey.get(key).get(1).body()).isEqualTo(byKey.get(key).get(0).body());
        }
    }

    @Test
    void countsAnAnswerLaterThanTheTimeoutAsTimedOutAndGoesOn() throws IOException {
        AtomicLong seen = new AtomicLong();
        // every tenth order is answered after 1.5 s, past the driver's 0.5 s
        URI uri = serve(request -> {
            if (seen.incrementAndGet() % 10 == 0) {
                sleep(1500);
            }
            return new Answer(201, null);
        });
        OpenLoopDriver driver = driver(uri, RateProfile.constant(50, Duration.ofSeconds(1), 1), Duration.ofMillis(500), 500);

        driver.run();

        assertThat(requests).hasSize(50);
        assertThat(driver.counters().timeouts.sum()).isEqualTo(5);
        assertThat(driver.counters().accepted.sum()).isEqualTo(45);
        assertThat(driver.counters().reconnects.sum()).isZero();
    }

    @Test
    void sendsGetsWithoutABodyWhenItHasNoBodies() throws IOException {
        URI uri = serve(request -> new Answer(200, null));
        DriverHttp http = new DriverHttp(Duration.ofSeconds(30));
        clients.add(http);
        OpenLoopDriver driver = new OpenLoopDriver(http, uri, null, RateProfile.constant(100, Duration.ofSeconds(1), 1), 0, 500,
                Duration.ofSeconds(1));

        driver.run();

        assertThat(requests).hasSize(100).allSatisfy(request -> {
            assertThat(request.method()).isEqualTo("GET");
            assertThat(request.body()).isEmpty();
        });
        assertThat(driver.accepted()).isEqualTo(100);
    }

    @Test
    void keepsAtMostTheInFlightLimitOutstandingAndCountsWhenItHoldsTheScheduleBack() throws IOException {
        // answers take 100 ms: at 100/s, ten would be in flight; the limit is 4, so the schedule waits for answers
        URI uri = serve(request -> {
            sleep(100);
            return new Answer(201, null);
        });
        OpenLoopDriver driver = driver(uri, RateProfile.constant(100, Duration.ofSeconds(1), 1), Duration.ofSeconds(30), 4);

        driver.run();

        DriverCounters counters = driver.counters();
        assertThat(counters.accepted.sum()).isEqualTo(100);
        assertThat(mostConcurrent.get()).isLessThanOrEqualTo(4);
        assertThat(counters.inFlightLimitHits.sum()).isPositive();
        // 100 orders, 4 at a time, 100 ms each: about 2.5 s instead of 1 s, so the last ones left late, and say so
        assertThat(counters.lateSends.sum()).isPositive();
        assertThat(driver.lagHistogram().getMaxValue()).isGreaterThan(1_000_000);
    }

    @Test
    void opensAtMostItsConnectionsAndQueuesTheRequestsBeyondThem() throws IOException {
        URI uri = serve(request -> {
            sleep(50);
            return new Answer(201, null);
        });
        DriverHttp http = new DriverHttp(Duration.ofSeconds(30), 3);
        clients.add(http);
        OpenLoopDriver driver = new OpenLoopDriver(http, uri, () -> "{}".getBytes(StandardCharsets.UTF_8),
                RateProfile.constant(200, Duration.ofSeconds(1), 1), 0, 500, Duration.ofSeconds(5));

        driver.run();

        assertThat(driver.accepted()).isEqualTo(200);
        assertThat(connections).hasSizeLessThanOrEqualTo(3);
        assertThat(mostConcurrent.get()).isLessThanOrEqualTo(3);
    }

    @Test
    void opensANewConnectionWhenTheServiceClosesEachAfterItsAnswer() throws IOException {
        closeEveryConnection = true;
        URI uri = serve(request -> new Answer(201, null));
        OpenLoopDriver driver = driver(uri, RateProfile.constant(100, Duration.ofSeconds(1), 1));

        driver.run();

        assertThat(driver.counters().errors.sum() + driver.counters().timeouts.sum())
                .as("failed: %s", driver.counters().errorKinds).isZero();
        assertThat(driver.accepted()).isEqualTo(100);
        assertThat(connections).hasSizeGreaterThan(50);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
