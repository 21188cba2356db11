package dev.lunchrush.load.rush;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.lunchrush.lesson.Snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A slow order service is not a dead one, and a dead one is dated by its exit. */
class DeathWatchTests {

    @TempDir
    Path root;

    private static Snapshot at(int second, boolean up) {
        Snapshot.OrderServiceStats stats = up ? new Snapshot.OrderServiceStats("memory-feed", "unbounded", "r", 0, 0, 0,
                0, 0, 0, 0, 0, 0, 0) : null;
        return new Snapshot(second * 1_000_000_000L, 0, 0, 0, 0, stats, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void aServiceWhoseProcessLivesIsNotDeadHoweverLongItIsSilent() throws Exception {
        Process living = new ProcessBuilder("sleep", "30").start();
        try {
            Files.createDirectories(root.resolve(".run"));
            Files.writeString(root.resolve(".run/order-service.pid"), living.pid() + "\n");
            DeathWatch watch = new DeathWatch(root, System.nanoTime());
            watch.observe(at(0, true));
            for (int second = 1; second <= 10; second++) {
                assertThat(watch.observe(at(second, false))).isFalse();
            }
            assertThat(watch.diedAtSeconds()).isNull();
        }
        finally {
            living.destroyForcibly();
        }
    }

    @Test
    void aServiceWhoseProcessWasGoneBeforeTheRushDiedWhenItFirstFellSilent() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Files.createDirectories(root.resolve(".run"));
        Files.writeString(root.resolve(".run/order-service.pid"), gone.pid() + "\n");
        DeathWatch watch = new DeathWatch(root, System.nanoTime());
        watch.observe(at(0, true));
        watch.observe(at(1, true));

        assertThat(watch.observe(at(2, false))).isTrue();
        assertThat(watch.diedAtSeconds()).isEqualTo(2.0);
    }

    @Test
    void aDeathIsDatedByTheProcessExitNotByTheFirstPollItMissed() throws Exception {
        // silent from the first second on (too busy to answer), its process exits about 2 s into the rush
        Process dying = new ProcessBuilder("sleep", "2").start();
        try {
            long start = System.nanoTime();
            Files.createDirectories(root.resolve(".run"));
            Files.writeString(root.resolve(".run/order-service.pid"), dying.pid() + "\n");
            DeathWatch watch = new DeathWatch(root, start);
            watch.observe(at(0, true));
            assertThat(watch.observe(at(1, false))).as("silent but alive").isFalse();
            dying.waitFor();
            await().atMost(Duration.ofSeconds(5)).until(() -> watch.observe(at(3, false)) && watch.diedAtSeconds() != null
                    && watch.diedAtSeconds() > 1.5);

            assertThat(watch.diedAtSeconds()).isBetween(1.9, 3.0);
        }
        finally {
            dying.destroyForcibly();
        }
    }

    @Test
    void withoutAPidFileFiveSilentPollsInARowMeanDead() {
        DeathWatch watch = new DeathWatch(root, System.nanoTime());
        watch.observe(at(0, true));
        for (int second = 1; second <= 4; second++) {
            assertThat(watch.observe(at(second, false))).isFalse();
        }
        watch.observe(at(5, true));
        for (int second = 6; second <= 9; second++) {
            assertThat(watch.observe(at(second, false))).isFalse();
        }
        assertThat(watch.observe(at(10, false))).isTrue();
        assertThat(watch.diedAtSeconds()).isEqualTo(6.0);
    }
}
