package dev.lunchrush.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.zaxxer.hikari.HikariDataSource;

/**
 * The embedded H2 file database a service keeps under its data folder. Built by hand rather than from
 * {@code spring.datasource.url} because H2 wants an absolute path and the data folders are relative
 * by default. Needs HikariCP and H2 on the caller's class path (optional here).
 */
public final class H2Files {

    private H2Files() {
    }

    /**
     * A pool on {@code <dataDir>/<name>}, the folder created when missing.
     *
     * @param urlOptions appended to the URL as they are, each with its leading {@code ;}
     */
    public static HikariDataSource dataSource(Path dataDir, String name, String urlOptions, int maxPoolSize) {
        Path dir = dataDir.toAbsolutePath();
        try {
            Files.createDirectories(dir);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot create the data folder " + dir, ex);
        }
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setDriverClassName("org.h2.Driver");
        dataSource.setJdbcUrl("jdbc:h2:file:" + dir.resolve(name) + urlOptions);
        dataSource.setUsername("sa");
        dataSource.setPassword("");
        dataSource.setMaximumPoolSize(maxPoolSize);
        return dataSource;
    }
}
