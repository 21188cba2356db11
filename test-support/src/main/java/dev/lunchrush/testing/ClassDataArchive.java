package dev.lunchrush.testing;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.FileSystemUtils;

import dev.lunchrush.processes.ServiceJar;

/**
 * A service started as Spring Boot describes for class data sharing: its jar extracted
 * ({@code -Djarmode=tools extract}) and a JDK archive of the classes it loads up to its context's refresh, made by
 * one training run ({@code -XX:ArchiveClassesAtExit}, {@code -Dspring.context.exit=onRefresh}). A start then maps
 * those classes instead of reading, parsing and verifying them: tests start the same services dozens of times.
 * <p>
 * The archive is made once per jar and JDK, under {@code <module>/target/cds}, the first time a test starts the
 * module after a build; JVMs that start the module at once make it once (a file lock). A JDK that cannot use it
 * starts without it; where making it fails, the service starts from its jar as before.
 */
final class ClassDataArchive {

    private static final Logger log = LoggerFactory.getLogger(ClassDataArchive.class);
    private static final Duration TRAINING_TIMEOUT = Duration.ofMinutes(4);
    private static final List<String> TRAINING_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1");
    private static final Map<String, Object> IN_THIS_JVM = new ConcurrentHashMap<>();

    private final ServiceJar jar;
    private final Path folder;

    ClassDataArchive(ServiceJar jar) {
        this.jar = jar;
        this.folder = jar.path().getParent().resolve("cds");
    }

    /**
     * {@code java <jvmOptions> -XX:SharedArchiveFile=… -jar <extracted jar> <arguments>}, the archive made first if
     * this jar and JDK have none; the plain jar's command when it cannot be made.
     *
     * @param environment the service's, for the training run (it reaches its context's refresh, not its brokers)
     */
    List<String> command(List<String> jvmOptions, List<String> arguments, Map<String, String> environment) {
        if (!ready(environment)) {
            return jar.command(jvmOptions, arguments);
        }
        List<String> options = new ArrayList<>(jvmOptions);
        options.add("-XX:SharedArchiveFile=" + archive());
        return ServiceJar.command(extractedJar(), options, arguments);
    }

    private boolean ready(Map<String, String> environment) {
        synchronized (IN_THIS_JVM.computeIfAbsent(jar.module(), module -> new Object())) {
            try {
                Files.createDirectories(folder);
                try (FileChannel channel = FileChannel.open(folder.resolve(".lock"), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE); FileLock lock = channel.lock()) {
                    if (stamp().equals(readStamp()) && Files.isRegularFile(archive())) {
                        return true;
                    }
                    return make(environment);
                }
            }
            catch (IOException | RuntimeException ex) {
                log.warn("{}: no class data archive ({}), starting from the jar", jar.module(), ex.toString());
                return false;
            }
        }
    }

    private boolean make(Map<String, String> environment) throws IOException {
        long started = System.nanoTime();
        FileSystemUtils.deleteRecursively(folder.resolve("app"));
        Files.deleteIfExists(archive());
        Files.deleteIfExists(folder.resolve("stamp"));
        Path training = folder.resolve("training.log");
        List<String> extract = List.of("extract", "--destination", folder.resolve("app").toString());
        run(jar.command(List.of("-Djarmode=tools"), extract), Map.of(), training);
        Path dataDir = Files.createTempDirectory("cds-training-" + jar.module());
        try {
            List<String> options = new ArrayList<>(TRAINING_OPTIONS);
            options.add("-XX:ArchiveClassesAtExit=" + archive());
            options.add("-Dspring.context.exit=onRefresh");
            Map<String, String> trainingEnvironment = new HashMap<>(environment);
            trainingEnvironment.put("LUNCHRUSH_DATA_DIR", dataDir.toString());
            run(ServiceJar.command(extractedJar(), options, List.of("--server.port=0", "--server.address=127.0.0.1")),
                    trainingEnvironment, training);
        }
        finally {
            FileSystemUtils.deleteRecursively(dataDir);
        }
        if (!Files.isRegularFile(archive())) {
            throw new IllegalStateException("the training run wrote no archive, see " + training.toAbsolutePath());
        }
        Files.writeString(folder.resolve("stamp"), stamp());
        log.info("{}: class data archive made in {} s", jar.module(), (System.nanoTime() - started) / 1_000_000_000);
        return true;
    }

    private static void run(List<String> command, Map<String, String> environment, Path logFile) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        builder.environment().putAll(environment);
        Process process = ChildProcesses.start(builder);
        try {
            if (!process.waitFor(TRAINING_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("did not end within " + TRAINING_TIMEOUT + ": " + command);
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException(ex);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("exit " + process.exitValue() + " of " + command + ", see "
                    + logFile.toAbsolutePath());
        }
    }

    /** The jar and the JDK the archive holds for: it must be made again when either changes. */
    private String stamp() throws IOException {
        return Files.size(jar.path()) + " " + Files.getLastModifiedTime(jar.path()).toMillis() + " "
                + System.getProperty("java.home") + " " + System.getProperty("java.vm.version");
    }

    private String readStamp() throws IOException {
        Path stamp = folder.resolve("stamp");
        return Files.isRegularFile(stamp) ? Files.readString(stamp) : "";
    }

    private Path archive() {
        return folder.resolve(jar.module() + ".jsa");
    }

    private Path extractedJar() {
        return folder.resolve("app").resolve(jar.module() + ".jar");
    }
}
