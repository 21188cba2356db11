package dev.lunchrush.testing;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A test JVM stopped with SIGTERM (as surefire stops it when Maven is stopped) leaves none of its
 * children behind: a real JVM starts a real child through {@link ChildProcesses} and is sent SIGTERM.
 */
class ChildProcessesTests {

    @Test
    void aTestJvmEndedBySigtermStopsTheProcessesItStarted() throws Exception {
        Process testJvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), StartsAChild.class.getName())
                .redirectErrorStream(true).start();
        long childPid = -1;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(testJvm.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            do {
                line = out.readLine();
                assertThat(line).as("the child's pid from the test JVM").isNotNull();
            }
            while (!line.startsWith("child "));
            childPid = Long.parseLong(line.substring("child ".length()).strip());
            ProcessHandle child = ProcessHandle.of(childPid).orElseThrow();
            assertThat(child.isAlive()).isTrue();

            testJvm.destroy();

            assertThat(testJvm.waitFor(20, TimeUnit.SECONDS)).as("the test JVM ended").isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> !child.isAlive());
        }
        finally {
            testJvm.destroyForcibly();
            if (childPid > 0) {
                ProcessHandle.of(childPid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    @Test
    void aProcessThatDiesWhileStartingIsReportedWithTheEndOfItsLog(@TempDir Path folder) throws Exception {
        Path logFile = folder.resolve("service.log");
        Process process = ChildProcesses.start(new ProcessBuilder("sh", "-c",
                "seq 1 100 | sed 's/^/line /'; echo 'Port 8080 was already in use.'; exit 1")
                .redirectErrorStream(true).redirectOutput(logFile.toFile()));

        assertThatThrownBy(() -> ChildProcesses.awaitReady(process, () -> false, Duration.ofSeconds(30), "a service", logFile))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("a service exited with 1 while starting; see " + logFile.toAbsolutePath())
                .hasMessageContaining("its last 40 lines:\nline 62\n")
                .hasMessageEndingWith("line 100\nPort 8080 was already in use.")
                .hasMessageNotContaining("line 61\n");
    }

    /** A stand-in for a test JVM: starts a long child, says its pid, and waits to be stopped. */
    static final class StartsAChild {

        public static void main(String[] args) throws Exception {
            Process child = ChildProcesses.start(new ProcessBuilder(List.of("sleep", "120")));
            System.out.println("child " + child.pid());
            System.out.flush();
            child.waitFor();
        }
    }
}
