package dev.lunchrush.chaos;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.management.UnixOperatingSystemMXBean;

import dev.lunchrush.load.menu.Menu;
import dev.lunchrush.localstack.StackControl;
import dev.lunchrush.localstack.StackManifest;
import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.Endpoints;
import dev.lunchrush.localstack.access.Pause;
import dev.lunchrush.localstack.access.OrderServiceClient;
import dev.lunchrush.localstack.access.OrderStats;

/**
 * {@code hostile-clients}: against the order service, {@value #IDLE} connections that declare a 64 KB order and send
 * nothing and {@value #SLOW} that send it one byte a second, held {@link #HOLD} (a connection the server lets go is
 * opened again, {@link HostileLoad}); a tenth of that ({@link #SHARE_OF_OTHERS}) against every other service of
 * {@code ./demo up}; against every service, {@value #TRICKLED} that send a request line and then a header byte every 2 s,
 * which each server must close within its header deadline ({@link #HEADER_DEADLINE}); and, a few seconds into the hold,
 * against each, pipelined garbage and 1 MB of headers ({@link OddClients}). Throughout, a client of its own asks every
 * service's {@code /actuator/health/liveness} and places a real order every half second ({@link Probes}). Passes when every
 * answer of the hold was right, came within {@link #CEILING}, and at most {@link #LATE_SHARE} of each service's later
 * than a second, every service is the same live process at the end, every service let go of
 * hostile connections (its timeouts work), and none held a trickled connection opened in the hold longer than its header
 * deadline and {@link #DEADLINE_SLACK}, counted from the connection's first byte (a connect the server's backlog dropped
 * is tried again by the kernel before the server sees a byte). All on 127.0.0.1; bounded in count and time (about three minutes).
 * <p>
 * The hold is judged after a {@link #WARM_UP} of the same attack, whose figures are reported, not judged: the
 * connections are opened over its first 10 s, and each service then takes, for the first time, the paths the attack
 * sends it down (a 404 and a close, a 408); a JVM runs a path's first thousands of requests slowly while it compiles
 * it, and six services compiling at once on two cores answer many of the warm-up's probes late, and close its trickled
 * connections late, whatever the attack does after.
 */
final class HostileClients {

    static final int IDLE = 4_000;
    static final int SLOW = 200;
    /**
     * The other services get a tenth of the order service's connections. A Tomcat service answers a request it has no
     * mapping for (a 404) and closes the connection at once, so that its share is a stream of new connections (each
     * opened again every {@link HostileLoad#REOPEN_AFTER}), not held ones, and each costs CPU: a larger share would
     * load two cores with the attack itself rather than test the services. A tenth is still twice Tomcat's 200
     * workers: a connection that held a worker (a body waited for and never sent) would make the probes late.
     */
    static final int SHARE_OF_OTHERS = 10;
    /**
     * Trickled connections per service: more than Tomcat's 200 workers, so that a server which gave each a worker
     * would starve its probes. Each sends a byte every {@link HostileLoad#HEADER_BYTE_EVERY} and wakes its server for
     * it; more of them would load two cores with header bytes rather than test the deadline.
     */
    static final int TRICKLED = 250;
    /** {@code lunchrush.server.header-timeout}, every service's ({@code lunchrush-server-limits.properties}). */
    static final Duration HEADER_DEADLINE = Duration.ofSeconds(20);
    /** A header byte every 2 s, Tomcat's poller looks at its timeouts every second, and a busy machine. */
    static final Duration DEADLINE_SLACK = Duration.ofSeconds(5);
    static final Duration HOLD = Duration.ofSeconds(90);
    /**
     * The share of a service's probes of the hold that may be later than {@link Probes#LIMIT}, as long as none is later
     * than {@link #CEILING}: six JVMs on two cores under 7,800 hostile connections pause now and then to collect (the
     * order service's heap is act 3's, and the held connections fill it), and a probe that falls into a pause waits.
     */
    static final double LATE_SHARE = 0.05;
    static final Duration CEILING = Duration.ofSeconds(3);
    static final Duration WARM_UP = Duration.ofSeconds(60);
    private static final URI CONTROL_ROOM = URI.create("http://127.0.0.1:" + StackManifest.get().service("control-room").port());
    /** File descriptors kept free besides the held connections: the JVM, the probes, the odd clients. */
    private static final int SPARE_FILES = 1_000;

    private final StackControl stack;
    private final Endpoints endpoints;
    private final Menu menu;
    private final long seed;
    private final ScenarioConsole console;

    HostileClients(StackControl stack, Endpoints endpoints, Menu menu, long seed, ScenarioConsole console) {
        this.stack = stack;
        this.endpoints = endpoints;
        this.menu = menu;
        this.seed = seed;
        this.console = console;
    }

    Result run(Scenario scenario) {
        List<String> notes = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        Map<String, URI> services = services();
        double scale = scale(services.size(), notes);
        List<HostileLoad.Target> targets = new ArrayList<>();
        Map<String, Long> pids = new LinkedHashMap<>();
        services.forEach((name, base) -> {
            int share = name.equals("order-service") ? 1 : SHARE_OF_OTHERS;
            targets.add(new HostileLoad.Target(name, base.getPort(), (int) (IDLE * scale / share), (int) (SLOW * scale / share),
                    (int) (TRICKLED * scale)));
            pids.put(name, stack.pid(name));
        });
        String heapBefore = heap();

        Map<String, Map<String, Map<String, Integer>>> odd = new ConcurrentHashMap<>();
        ExecutorService oddThreads = Executors.newFixedThreadPool(targets.size(), runnable -> {
            Thread thread = new Thread(runnable, "chaos-odd");
            thread.setDaemon(true);
            return thread;
        });
        try (Probes probes = new Probes(services, endpoints.orderService(), menu, seed)) {
            probes.start();
            Pause.sleep(Duration.ofSeconds(2));
            HostileLoad load;
            try {
                load = new HostileLoad(targets);
            }
            catch (IOException ex) {
                throw new DemoException("cannot open a selector for the hostile clients: " + ex.getMessage());
            }
            console.say(scenario, targets.stream().map(t -> t.name() + " " + t.idle() + " idle + " + t.slow() + " slow + "
                    + t.trickled() + " trickled")
                    .reduce((a, b) -> a + ", " + b).orElse("") + "; a warm-up of " + WARM_UP.toSeconds()
                    + " s, then held " + HOLD.toSeconds() + " s");
            Map<String, Probes.Figures> warmUp;
            long started;
            try (load) {
                load.start();
                Pause.sleep(Duration.ofSeconds(5));
                // the odd clients play in the warm-up as in the hold: their paths (a 400, a 431) are warmed too
                CompletableFuture<Void> warmingOdd = playOddClients(targets, oddThreads, new ConcurrentHashMap<>());
                Pause.sleep(WARM_UP.minusSeconds(5));
                warmingOdd.join();
                warmUp = probes.countAfresh();
                load.judgeFromNow();
                console.say(scenario, "warm-up over (not judged): " + late(warmUp) + "; the hold begins");
                started = System.nanoTime();
                Pause.sleep(Duration.ofSeconds(5));
                CompletableFuture<Void> played = playOddClients(targets, oddThreads, odd);
                while (System.nanoTime() - started < HOLD.toNanos()) {
                    Pause.sleep(Duration.ofSeconds(10));
                    console.say(scenario, "… " + progress(targets, load, probes));
                }
                played.join();
            }
            finally {
                oddThreads.shutdownNow();
            }
            console.say(scenario, "hostile clients gone; " + progress(targets, load, probes));
            Pause.sleep(Duration.ofSeconds(3));
            probes.close();
            notes.add("warm-up (" + WARM_UP.toSeconds() + " s, not judged): " + late(warmUp));
            judge(targets, load, probes, odd, pids, failures, notes);
            notes.add("order service heap before " + heapBefore + ", after " + heap());
            long late = services.keySet().stream().mapToLong(name -> probes.health(name).late.get()).sum()
                    + probes.orders().late.get();
            long slowest = services.keySet().stream().mapToLong(name -> probes.health(name).slowestMillis.get())
                    .reduce(probes.orders().slowestMillis.get(), Math::max);
            return new Result(scenario.id, scenario.act.id(), probes.placed(), -1, -1, -1, 0, 0,
                    probes.orders().asked.get() - probes.placed(), late, 0, slowest, notes, failures);
        }
    }

    private void judge(List<HostileLoad.Target> targets, HostileLoad load, Probes probes,
            Map<String, Map<String, Map<String, Integer>>> odd, Map<String, Long> pids, List<String> failures,
            List<String> notes) {
        for (HostileLoad.Target target : targets) {
            HostileLoad.Counts counts = load.counts(target);
            Probes.Figures health = probes.health(target.name());
            notes.add("%s: %d hostile connections opened, %d let go by the server (%d answered 408), %d not connected; "
                    .formatted(target.name(), counts.opened.get(), counts.closedByServer.get(), counts.answered408.get(),
                            counts.notConnected.get())
                    + "trickled headers: %d let go, the longest held %.1f s (%.1f s in the warm-up); ".formatted(
                            counts.trickledLetGo.get(), counts.longestTrickledNanos.get() / 1e9,
                            counts.warmUpLongestTrickledNanos.get() / 1e9)
                    + "health %d asked, %d late, slowest %d ms; odd clients %s".formatted(health.asked.get(),
                            health.late.get(), health.slowestMillis.get(), odd.getOrDefault(target.name(), Map.of())));
            judgeProbes(target.name() + " health", health, failures);
            if (counts.closedByServer.get() == 0) {
                failures.add(target.name() + " let go of no hostile connection in " + HOLD.toSeconds() + " s: no timeout");
            }
            long longest = counts.longestTrickledNanos.get();
            if (target.trickled() > 0
                    && (counts.trickledLetGo.get() == 0 || longest > HEADER_DEADLINE.plus(DEADLINE_SLACK).toNanos())) {
                failures.add("%s held a connection trickling its headers %.1f s (%d such let go): the header deadline is %d s"
                        .formatted(target.name(), longest / 1e9, counts.trickledLetGo.get(), HEADER_DEADLINE.toSeconds()));
            }
            failures.addAll(alive(target.name(), pids.get(target.name())));
        }
        Probes.Figures orders = probes.orders();
        notes.add("orders from another client: %d asked, %d placed (201), %d late or refused, slowest %d ms"
                .formatted(orders.asked.get(), probes.placed(), orders.late.get(), orders.slowestMillis.get()));
        judgeProbes("orders", orders, failures);
    }

    /**
     * Every probe answered as it should, at most {@link #LATE_SHARE} of them later than {@link Probes#LIMIT}, and none
     * later than {@link #CEILING}.
     */
    private static void judgeProbes(String what, Probes.Figures figures, List<String> failures) {
        long allowedLate = (long) Math.floor(figures.asked.get() * LATE_SHARE);
        long wrong = figures.wrong.get();
        long late = figures.late.get() - wrong;
        if (wrong > 0 || late > allowedLate || figures.slowestMillis.get() > CEILING.toMillis()) {
            failures.add("%s: %d of %d answers wrong or none, %d later than %d ms (at most %d may be), the slowest %d ms (at most %d), e.g. %s, asked in seconds %s of the probes"
                    .formatted(what, wrong, figures.asked.get(), late, Probes.LIMIT.toMillis(), allowedLate,
                            figures.slowestMillis.get(), CEILING.toMillis(), figures.lateOnes, figures.lateSeconds));
        }
    }

    /** The service is the process it was before, and says it is live. */
    private List<String> alive(String name, long pidBefore) {
        try {
            long pid = stack.pid(name);
            if (pid != pidBefore) {
                return List.of(name + " is another process now (pid " + pidBefore + " → " + pid + "): it died");
            }
        }
        catch (DemoException ex) {
            return List.of(name + " is not running: " + ex.getMessage());
        }
        URI base = name.equals("control-room") ? CONTROL_ROOM : services().get(name);
        try {
            HttpResponse<Void> live = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    Endpoints.resolve(base, "/actuator/health/liveness")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding());
            return live.statusCode() == 200 ? List.of() : List.of(name + " liveness answered " + live.statusCode());
        }
        catch (IOException ex) {
            return List.of(name + " liveness not answered: " + ex.getMessage());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return List.of("interrupted");
        }
    }

    private Map<String, URI> services() {
        Map<String, URI> services = new LinkedHashMap<>();
        services.put("order-service", endpoints.orderService());
        services.put("kitchen-screen", endpoints.kitchenScreen());
        services.put("analytics-dashboard", endpoints.analyticsDashboard());
        services.put("report-replayer", endpoints.reportReplayer());
        services.put("backlog-monitor", endpoints.backlogMonitor());
        services.put("control-room", CONTROL_ROOM);
        return services;
    }

    /**
     * 1 when this process may open every connection; less, with a note saying so, when its file limit
     * ({@code ulimit -n}, which the JVM raises to the hard limit) is too low for them all.
     */
    private static double scale(int services, List<String> notes) {
        int wanted = (IDLE + SLOW) + (services - 1) * (IDLE + SLOW) / SHARE_OF_OTHERS + services * TRICKLED;
        long limit = ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix
                ? unix.getMaxFileDescriptorCount() : Long.MAX_VALUE;
        if (limit >= wanted + SPARE_FILES) {
            return 1.0;
        }
        double scale = Math.max(0.05, (double) (limit - SPARE_FILES) / wanted);
        notes.add("this process may open " + limit + " files (ulimit -n) and the attack wants " + wanted
                + " connections: all counts scaled to " + Math.round(scale * 100) + "%; raise the limit for the whole attack");
        return scale;
    }

    private String heap() {
        try {
            OrderStats.Heap heap = new OrderServiceClient(endpoints.orderService(), () -> "").stats().heap();
            return "%.1f MB used of %.1f MB".formatted(heap.usedBytes() / 1e6, heap.maxBytes() / 1e6);
        }
        catch (DemoException ex) {
            return "unknown (" + ex.getMessage() + ")";
        }
    }

    /** The odd clients against each service in turn (each service's several at once), in the background. */
    private CompletableFuture<Void> playOddClients(List<HostileLoad.Target> targets, ExecutorService threads,
            Map<String, Map<String, Map<String, Integer>>> into) {
        return CompletableFuture.runAsync(() -> targets.forEach(
                target -> into.put(target.name(), OddClients.play(target.port(), seed))), threads);
    }

    private static String late(Map<String, Probes.Figures> figures) {
        return figures.entrySet().stream().map(entry -> "%s %d of %d late".formatted(
                entry.getKey().isEmpty() ? "orders" : entry.getKey(), entry.getValue().late.get(), entry.getValue().asked.get()))
                .reduce((a, b) -> a + ", " + b).orElse("");
    }

    private static String progress(List<HostileLoad.Target> targets, HostileLoad load, Probes probes) {
        long letGo = targets.stream().mapToLong(t -> load.counts(t).closedByServer.get()).sum();
        long late = targets.stream().mapToLong(t -> probes.health(t.name()).late.get()).sum() + probes.orders().late.get();
        return "%d hostile connections let go by the servers so far; %d orders placed; %d probes late"
                .formatted(letGo, probes.placed(), late);
    }
}
