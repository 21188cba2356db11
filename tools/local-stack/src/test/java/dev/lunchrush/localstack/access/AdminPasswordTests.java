package dev.lunchrush.localstack.access;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class AdminPasswordTests {

    @TempDir
    Path root;

    @Test
    void environmentFirstThenDotEnvThenTheGeneratedFile() throws Exception {
        assertThat(AdminPassword.find(root, Map.of())).isEmpty();

        Files.createDirectories(root.resolve(".run"));
        Files.writeString(root.resolve(".run/admin-password"), "generated-one\n");
        assertThat(AdminPassword.find(root, Map.of())).contains("generated-one");

        Files.writeString(root.resolve(".env"), """
                # compose reads this file too
                OTHER=1
                export LUNCHRUSH_SECURITY_ADMIN_PASSWORD="from dot env"
                """);
        assertThat(AdminPassword.find(root, Map.of())).contains("from dot env");

        assertThat(AdminPassword.find(root, Map.of(AdminPassword.VARIABLE, "from-env"))).contains("from-env");
    }

    @Test
    void readsDotEnvLikeCompose() throws Exception {
        Path file = root.resolve(".env");
        Files.writeString(file, "A=1\nB = 'two words'\n#C=3\nD=\nA=last wins\n");
        assertThat(AdminPassword.readDotEnv(file, "A")).isEqualTo("last wins");
        assertThat(AdminPassword.readDotEnv(file, "B")).isEqualTo("two words");
        assertThat(AdminPassword.readDotEnv(file, "C")).isNull();
        assertThat(AdminPassword.readDotEnv(file, "D")).isEmpty();
    }

    /**
     * The generated password is readable by its owner alone from the first moment its name exists: the folder's
     * events show the name appear once, whole (a move), and never written or changed afterwards. A file created
     * with the default mode and changed to 600 after its write shows up as created, then modified.
     */
    @Test
    void theGeneratedPasswordIsNeverReadableByOthersNotEvenForAMoment() throws Exception {
        Path folder = Files.createDirectories(root.resolve(".run"));
        List<String> events = new ArrayList<>();
        String password;
        try (WatchService watch = folder.getFileSystem().newWatchService()) {
            folder.register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                    StandardWatchEventKinds.ENTRY_DELETE);
            password = AdminPassword.findOrCreate(root, Map.of());
            // the kernel queued every event before findOrCreate returned; a quiet half second means all are in
            WatchKey key;
            while ((key = watch.poll(500, TimeUnit.MILLISECONDS)) != null) {
                for (WatchEvent<?> event : key.pollEvents()) {
                    if (event.context().toString().equals("admin-password")) {
                        events.add(event.kind().name());
                    }
                }
                key.reset();
            }
        }
        assertThat(events).containsExactly("ENTRY_CREATE");
        Path file = folder.resolve("admin-password");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file)).isEqualTo(password + "\n");
        try (var left = Files.list(folder)) {
            assertThat(left).containsExactly(file);
        }
        assertThat(AdminPassword.findOrCreate(root, Map.of())).isEqualTo(password);
    }
}
