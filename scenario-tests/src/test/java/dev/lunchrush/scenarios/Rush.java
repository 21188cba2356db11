package dev.lunchrush.scenarios;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.testing.ChildProcesses;
import dev.lunchrush.testing.ServiceProcess;

/**
 * {@code ./demo rush} as users run it: the packaged load generator in a JVM of its own, against the
 * stack's services, its report read back from {@code --json}. The stack's data folder stands in for
 * the repository root ({@code LUNCHRUSH_HOME}); a stack's order service can be registered there the
 * way {@code ./demo up} does ({@code .run/order-service.pid}), so that the rush tells its death from
 * its slowness by its process.
 */
public final class Rush {

    private static final Logger log = LoggerFactory.getLogger(Rush.class);

    private Rush() {
    }

    /** What the rush printed and wrote. */
    public record Report(JsonNode json, String output) {

        public long orders(String field) {
            return json.path("orders").path(field).asLong();
        }

        /** The lesson's line of that name (as the table prints it). */
        public JsonNode line(String name) {
            for (JsonNode line : json.path("lesson")) {
                if (name.equals(line.path("name").asString(""))) {
                    return line;
                }
            }
            throw new AssertionError("no line '" + name + "' in the rush's table:\n" + output);
        }
    }

    /** Writes the order service's pid where the rush looks for it, as {@code ./demo up} does. */
    public static void registerOrderService(Stack stack, Path home) throws IOException {
        Path run = Files.createDirectories(home.resolve(".run"));
        Files.writeString(run.resolve("order-service.pid"), String.valueOf(stack.service("order-service").pid()));
    }

    /**
     * Runs {@code rush <arguments>} against the stack and waits for it, at most {@code timeout}; the
     * rush must end by itself with exit code 0.
     */
    public static Report run(Stack stack, Path home, Duration timeout, List<String> arguments) throws Exception {
        Path jar = ServiceProcess.projectRoot().resolve("tools/demo-cli/target/demo-cli.jar");
        Path json = home.resolve("rush-" + System.nanoTime() + ".json");
        Path output = home.resolve(json.getFileName() + ".log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-jar", jar.toString()));
        for (String module : stack.modules()) {
            command.add("--" + module);
            command.add(stack.uri(module, "").toString());
        }
        command.add("rush");
        command.addAll(arguments);
        command.add("--json");
        command.add(json.toString());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("LUNCHRUSH_HOME", home.toAbsolutePath().toString());
        builder.environment().put("LUNCHRUSH_SECURITY_ADMIN_PASSWORD", stack.adminPassword());
        log.info("rush {}", String.join(" ", arguments));
        Process process = ChildProcesses.start(builder);
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("the rush did not end within " + timeout + ":\n" + Files.readString(output));
            }
        }
        finally {
            process.destroyForcibly();
        }
        String printed = Files.readString(output);
        log.info("rush printed:\n{}", printed);
        if (process.exitValue() != 0) {
            throw new AssertionError("the rush exited with " + process.exitValue() + ":\n" + printed);
        }
        return new Report(Stack.JSON.readTree(json.toFile()), printed);
    }
}
