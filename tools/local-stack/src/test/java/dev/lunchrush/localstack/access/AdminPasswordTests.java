package dev.lunchrush.localstack.access;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

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
}
