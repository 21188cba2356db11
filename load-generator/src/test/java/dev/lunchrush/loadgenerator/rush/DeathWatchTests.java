package dev.lunchrush.loadgenerator.rush;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** A slow order service is not a dead one. */
class DeathWatchTests {

    @TempDir
    Path root;

    private static Snapshot at(int second, boolean up) {
        Snapshot.OrderServiceStats stats = up ? new Snapshot.OrderServiceStats("memory-feed", "unbounded", "r", 0, 0, 0,
                0, 0, 0, 0, 0, 0) : null;
        return new Snapshot(second * 1_000_000_000L, 0, 0, 0, 0, stats, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void aServiceWhoseProcessLivesIsNotDeadHoweverLongItIsSilent() throws Exception {
        Files.createDirectories(root.resolve(".run"));
        Files.writeString(root.resolve(".run/order-service.pid"), ProcessHandle.current().pid() + "\n");
        RushCommand.DeathWatch watch = new RushCommand.DeathWatch(root);
        watch.observe(at(0, true));
        for (int second = 1; second <= 10; second++) {
            assertThat(watch.observe(at(second, false))).isFalse();
        }
        assertThat(watch.diedAtSeconds()).isNull();
    }

    @Test
    void aServiceWhoseProcessIsGoneDiedWhenItFirstFellSilent() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Files.createDirectories(root.resolve(".run"));
        Files.writeString(root.resolve(".run/order-service.pid"), gone.pid() + "\n");
        RushCommand.DeathWatch watch = new RushCommand.DeathWatch(root);
        watch.observe(at(0, true));
        watch.observe(at(1, true));

        assertThat(watch.observe(at(2, false))).isTrue();
        assertThat(watch.diedAtSeconds()).isEqualTo(2.0);
    }

    @Test
    void withoutAPidFileFiveSilentPollsInARowMeanDead() {
        RushCommand.DeathWatch watch = new RushCommand.DeathWatch(root);
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
