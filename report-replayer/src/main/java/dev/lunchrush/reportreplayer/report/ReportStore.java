package dev.lunchrush.reportreplayer.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

import dev.lunchrush.reportreplayer.ReplayerProperties;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reports as JSON files under {@code <data-dir>/reports}, one per (day, zone); a new replay of the
 * same day replaces the previous report (written to a temporary file and moved, so a reader never
 * sees half a report).
 */
@Component
public class ReportStore {

    private static final Logger log = LoggerFactory.getLogger(ReportStore.class);

    private final Path folder;
    private final JsonMapper json;

    ReportStore(ReplayerProperties properties, JsonMapper json) {
        this.folder = properties.dataDir().resolve("reports");
        this.json = json;
    }

    public void save(DayReport report) {
        try {
            Files.createDirectories(folder);
            Path target = file(LocalDate.parse(report.date()), ZoneId.of(report.zone()));
            Path temporary = Files.createTempFile(folder, "report", ".tmp");
            json.writerWithDefaultPrettyPrinter().writeValue(temporary.toFile(), report);
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("could not write the report of " + report.date(), ex);
        }
    }

    public Optional<DayReport> find(LocalDate date, ZoneId zone) {
        Path file = file(date, zone);
        return Files.isRegularFile(file) ? Optional.ofNullable(read(file)) : Optional.empty();
    }

    /** Every kept report, newest day first. */
    public List<DayReport> all() {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        List<DayReport> reports = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            files.filter(file -> file.getFileName().toString().endsWith(".json")).forEach(file -> {
                DayReport report = read(file);
                if (report != null) {
                    reports.add(report);
                }
            });
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        reports.sort(Comparator.comparing(DayReport::date).reversed().thenComparing(DayReport::zone));
        return reports;
    }

    private @Nullable DayReport read(Path file) {
        try {
            return json.readValue(file.toFile(), DayReport.class);
        }
        catch (JacksonException ex) {
            log.warn("skipping unreadable report {}: {}", file, ex.getOriginalMessage());
            return null;
        }
    }

    private Path file(LocalDate date, ZoneId zone) {
        // zone ids contain '/', never "--"
        return folder.resolve(date + "_" + zone.getId().replace("/", "--") + ".json");
    }
}
