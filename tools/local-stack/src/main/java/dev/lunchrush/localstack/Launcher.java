package dev.lunchrush.localstack;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.lunchrush.localstack.access.AdminPassword;
import dev.lunchrush.localstack.access.DemoException;

/** What {@code up}, {@code down} and {@code status} do, over the {@link LocalStack}'s components. */
public final class Launcher {

    private static final Duration BROKER_TIMEOUT = Duration.ofSeconds(120);

    private final LocalStack stack;
    private final PrintWriter out;

    public Launcher(LocalStack stack, PrintWriter out) {
        this.stack = stack;
        this.out = out;
    }

    /** Starts what is not running, waits for health, prints the table; true when everything is up. */
    public boolean up(Duration servicesTimeout) {
        refuseOtherKafkaMode();
        String password = AdminPassword.findOrCreate(stack.root());
        try {
            Files.createDirectories(stack.runDir().resolve("logs"));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        stack.markCluster();
        List<Component> components = stack.components(password);
        List<Component> infrastructure = components.stream().filter(c -> !(c instanceof ServiceNode)).toList();
        List<Component> services = components.stream().filter(ServiceNode.class::isInstance).toList();

        Map<String, Row> rows = new LinkedHashMap<>();
        for (Component component : infrastructure) {
            say("starting " + component.name() + " (if it is not running)…");
            component.start();
        }
        Instant brokerDeadline = Instant.now().plus(BROKER_TIMEOUT);
        for (Component component : infrastructure) {
            Row row = component.await(brokerDeadline);
            rows.put(component.name(), row);
            say(component.name() + ": " + row.state());
        }
        for (Component component : services) {
            component.start();
        }
        say("waiting for the services (at most " + servicesTimeout.toSeconds() + " s)…");
        Instant deadline = Instant.now().plus(servicesTimeout);
        for (Component component : services) {
            Row row = component.await(deadline);
            rows.put(component.name(), row);
            say(component.name() + ": " + row.state());
        }
        out.println();
        List<Row> table = new ArrayList<>(rows.values());
        StatusTable.print(table, out);
        boolean allUp = table.stream().allMatch(Row::healthy);
        out.println();
        if (allUp) {
            out.println("Everything is up. Pages: " + pages() + (stack.tracing()
                    ? ", traces http://localhost:" + ZipkinNode.PORT : "") + ".");
            out.println("Admin password: " + passwordSource() + ". Logs: " + stack.runDir().resolve("logs") + ".");
        }
        else {
            out.println("Not everything is up: see the lines above. ./demo up again starts only what is missing.");
        }
        out.flush();
        return allUp;
    }

    /** Stops what {@code up} started, services first, brokers last; RabbitMQ stays. */
    public void down() {
        List<Component> components = new ArrayList<>(everyComponent());
        java.util.Collections.reverse(components);
        List<Component> services = components.stream().filter(ServiceNode.class::isInstance).toList();
        // services stop in parallel: each takes its graceful-shutdown time, and they do not depend on each other
        Map<String, CompletableFuture<String>> stopping = new LinkedHashMap<>();
        for (Component service : services) {
            stopping.put(service.name(), CompletableFuture.supplyAsync(service::stop));
        }
        stopping.forEach((name, result) -> say(name + ": " + result.join()));
        for (Component component : components) {
            if (component instanceof KafkaNode node && !relevant(node)) {
                continue;
            }
            if (!(component instanceof ServiceNode)) {
                say(component.name() + ": " + component.stop());
            }
        }
        try {
            Files.deleteIfExists(stack.runDir().resolve("kafka-cluster"));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        out.flush();
    }

    /** Prints the table; true when everything is up. */
    public boolean status() {
        List<Row> rows = everyComponent().stream()
                .filter(component -> !(component instanceof KafkaNode node) || relevant(node))
                .map(Component::status).toList();
        StatusTable.print(rows, out);
        return rows.stream().allMatch(Row::healthy);
    }

    /** The single broker and the cluster's three: {@code down} stops whichever has a pid file. */
    private List<Component> everyComponent() {
        List<Component> components = new ArrayList<>(stack.components("unused"));
        LocalStack other = new LocalStack(stack.root(), !stack.cluster());
        components.addAll(1, other.kafkaNodes());
        return components;
    }

    private boolean relevant(KafkaNode node) {
        boolean current = stack.kafkaNodes().stream().anyMatch(n -> n.name().equals(node.name()));
        return current || Files.exists(stack.runDir().resolve(node.name() + ".pid"));
    }

    private void refuseOtherKafkaMode() {
        LocalStack other = new LocalStack(stack.root(), !stack.cluster());
        List<String> running = other.kafkaNodes().stream()
                .filter(node -> new ManagedProcess(node.name(), stack.runDir(), node.propertiesFile().toString())
                        .running().isPresent())
                .map(KafkaNode::name).toList();
        if (!running.isEmpty()) {
            throw new DemoException((stack.cluster() ? "A single Kafka broker" : "The three-broker Kafka cluster")
                    + " is running (" + String.join(", ", running) + "): run ./demo down first, then ./demo up"
                    + (stack.cluster() ? " --cluster" : "") + ".");
        }
    }

    private String passwordSource() {
        if (System.getenv(AdminPassword.VARIABLE) != null) {
            return "from " + AdminPassword.VARIABLE;
        }
        if (AdminPassword.readDotEnv(stack.root().resolve(".env"), AdminPassword.VARIABLE) != null) {
            return "from .env";
        }
        return "in .run/admin-password";
    }

    /** {@code kitchen screen http://localhost:8081, dashboard http://localhost:8082, …}: every page of the manifest. */
    static String pages() {
        return StackManifest.get().services().stream().filter(service -> service.page() != null)
                .map(service -> service.page() + " " + service.localUrl()).collect(java.util.stream.Collectors.joining(", "));
    }

    private void say(String line) {
        out.println(line);
        out.flush();
    }
}
