package dev.lunchrush.processes;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A Lunch Rush service's packaged jar, {@code <root>/<module>/target/<module>.jar} (or under {@code tools/}), and
 * the command line that runs it: {@code ./demo up} runs it detached (local-stack's {@code ServiceNode}), tests run
 * it as a child of their JVM.
 */
public record ServiceJar(Path root, String module) {

    public Path path() {
        Path folder = Files.isDirectory(root.resolve(module)) ? root.resolve(module) : root.resolve("tools").resolve(module);
        return folder.resolve("target").resolve(module + ".jar");
    }

    /** The module is packaged. */
    public boolean built() {
        return Files.isRegularFile(path());
    }

    /** {@code java <jvmOptions> -jar <jar> <arguments>}. */
    public List<String> command(List<String> jvmOptions, List<String> arguments) {
        return command(path(), jvmOptions, arguments);
    }

    /** {@code java <jvmOptions> -jar <jarFile> <arguments>}, with the {@code java} of this JVM: for any jar. */
    public static List<String> command(Path jarFile, List<String> jvmOptions, List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(KafkaBroker.javaBin());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jarFile.toString());
        command.addAll(arguments);
        return command;
    }

    /** The service at {@code base} is ready: UP on {@code /actuator/health/readiness}. */
    public static boolean healthy(URI base) {
        return Probe.actuatorUp(base);
    }
}
