package dev.lunchrush.load.rush;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One rush at a time on a stack: a live holder refuses the next; a gone one, or no .run folder, holds nothing. */
class RushMarkerTests {

    @TempDir
    Path root;

    @Test
    void aLiveHolderRefusesTheNextUntilItLetsGo() throws IOException {
        Files.createDirectories(root.resolve(".run"));
        RushMarker first = RushMarker.claim(root, "./demo rush");
        assertThat(RushMarker.heldBy(root)).hasValueSatisfying(holder -> assertThat(holder)
                .startsWith("./demo rush, pid " + ProcessHandle.current().pid()));
        assertThatThrownBy(() -> RushMarker.claim(root, "the control room's rush 1"))
                .isInstanceOf(RushMarker.Held.class).hasMessageContaining("./demo rush, pid");
        first.close();
        assertThat(RushMarker.heldBy(root)).isEmpty();
        RushMarker.claim(root, "the control room's rush 2").close();
    }

    @Test
    void aMarkerLeftByAProcessThatIsGoneHoldsNothing() throws Exception {
        Files.createDirectories(root.resolve(".run"));
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Files.writeString(root.resolve(".run").resolve("rush"), gone.pid() + " - ./demo rush");
        assertThat(RushMarker.heldBy(root)).isEmpty();
        try (RushMarker claimed = RushMarker.claim(root, "the control room's rush 3")) {
            assertThat(RushMarker.heldBy(root)).hasValueSatisfying(holder -> assertThat(holder).startsWith("the control room's rush 3"));
        }
    }

    @Test
    void withoutARunFolderNobodySeesAnybody() {
        try (RushMarker claimed = RushMarker.claim(root, "./demo rush")) {
            assertThat(root.resolve(".run")).doesNotExist();
            RushMarker.claim(root, "./demo rush").close();
        }
    }
}
