package dev.lunchrush.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * What a service's test registers before its context starts: the brokers ({@link TestBrokers}) and a data
 * folder of its own, new and empty, so that nothing another test or an earlier run left behind counts.
 */
public final class ServiceTestSetup {

    private ServiceTestSetup() {
    }

    /** Registers the brokers and {@code lunchrush.data-dir}, a new folder named after {@code dataDirPrefix}. */
    public static void register(DynamicPropertyRegistry registry, String dataDirPrefix) {
        TestBrokers.register(registry);
        Path dataDir = newDataDir(dataDirPrefix);
        registry.add("lunchrush.data-dir", dataDir::toString);
    }

    /** A new, empty temporary folder whose name begins with {@code prefix}. */
    public static Path newDataDir(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
