package dev.lunchrush.localstack;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;

import dev.lunchrush.localstack.access.ServiceClient;

/**
 * The stack said once: {@code lunchrush/stack.json}, each service's name, module, port, health path, the sources it
 * reads orders from and its page, then the infrastructure's ports. The launcher, the bench, the control room and the
 * CLI read it; {@code infra/check} fails when compose's published ports or Prometheus's targets disagree with it.
 */
public record StackManifest(List<Service> services, List<Infrastructure> infrastructure) {

    /** Where the manifest is on the classpath (and in {@code tools/local-stack/src/main/resources}). */
    public static final String RESOURCE = "lunchrush/stack.json";

    /**
     * One service of the stack, in start order.
     *
     * @param module the Maven artifact whose jar runs it ({@link ServiceJar})
     * @param health the path that answers 200 when it is ready
     * @param reads the sources it reads orders from (the {@code source} label of {@code orders_received_total});
     *     empty when it is no reader
     * @param page what its web page is called in the launcher's summary; null when it has none
     * @param lesson one of the five services the lesson is about; the control room is not: it shows them
     */
    public record Service(String name, String module, int port, String health, List<String> reads, @Nullable String page,
            boolean lesson) {

        public boolean reader() {
            return !reads.isEmpty();
        }

        /** Where it answers on this machine: {@code http://localhost:<port>}. */
        public URI localUrl() {
            return URI.create("http://localhost:" + port);
        }
    }

    /** A piece of infrastructure the stack runs beside its services, and its port. */
    public record Infrastructure(String name, int port) {
    }

    private static final class Loaded {
        static final StackManifest MANIFEST = read();
    }

    /** The manifest on the classpath, read once. */
    public static StackManifest get() {
        return Loaded.MANIFEST;
    }

    /** The service of this name; fails when the manifest has none (a typo in the caller). */
    public Service service(String name) {
        return services.stream().filter(service -> service.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no service '" + name + "' in " + RESOURCE));
    }

    /** The five services of the lesson, in start order, without the control room. */
    public List<Service> lessonServices() {
        return services.stream().filter(Service::lesson).toList();
    }

    /** The services that read orders, in start order. */
    public List<Service> readers() {
        return services.stream().filter(Service::reader).toList();
    }

    public Optional<Infrastructure> infrastructure(String name) {
        return infrastructure.stream().filter(piece -> piece.name().equals(name)).findFirst();
    }

    /** The port of a piece of infrastructure; fails when the manifest has none. */
    public int port(String infrastructureName) {
        return infrastructure(infrastructureName).map(Infrastructure::port)
                .orElseThrow(() -> new IllegalArgumentException("no infrastructure '" + infrastructureName + "' in " + RESOURCE));
    }

    static StackManifest read() {
        try (InputStream in = StackManifest.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the classpath");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    static StackManifest parse(String json) {
        Map<?, ?> root;
        try {
            root = ServiceClient.JSON.readValue(json, Map.class);
        }
        catch (JacksonException ex) {
            throw new IllegalStateException(RESOURCE + " is not JSON: " + ex.getOriginalMessage(), ex);
        }
        List<Service> services = new ArrayList<>();
        for (Map<?, ?> node : entries(root, "services")) {
            List<String> reads = new ArrayList<>();
            if (node.get("reads") instanceof List<?> sources) {
                sources.forEach(source -> reads.add(String.valueOf(source)));
            }
            services.add(new Service(text(node, "name"), text(node, "module"), port(node), text(node, "health"),
                    List.copyOf(reads), node.get("page") instanceof String page ? page : null,
                    Boolean.TRUE.equals(node.get("lesson"))));
        }
        List<Infrastructure> infrastructure = new ArrayList<>();
        for (Map<?, ?> node : entries(root, "infrastructure")) {
            infrastructure.add(new Infrastructure(text(node, "name"), port(node)));
        }
        return new StackManifest(List.copyOf(services), List.copyOf(infrastructure));
    }

    private static List<Map<?, ?>> entries(Map<?, ?> root, String field) {
        List<Map<?, ?>> entries = new ArrayList<>();
        if (root.get(field) instanceof List<?> list) {
            list.stream().filter(Map.class::isInstance).forEach(entry -> entries.add((Map<?, ?>) entry));
        }
        return entries;
    }

    private static String text(Map<?, ?> node, String field) {
        if (!(node.get(field) instanceof String value) || value.isBlank()) {
            throw new IllegalStateException(RESOURCE + ": an entry has no '" + field + "': " + node);
        }
        return value;
    }

    private static int port(Map<?, ?> node) {
        if (!(node.get("port") instanceof Integer port) || port <= 0 || port > 65535) {
            throw new IllegalStateException(RESOURCE + ": an entry has no port: " + node);
        }
        return port;
    }
}
