package dev.lunchrush.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The compiled classes of every module of the root pom but this one (each module's target/classes and
 * target/test-classes, read from disk), imported once for all the rules' tests. Fails when a part of the project is
 * missing: the rules say nothing about a project they cannot see.
 */
final class ProjectClasses {

    private static final DescribedPredicate<JavaClass> MAIN = DescribedPredicate.describe("main code",
            type -> type.getSource().map(source -> source.getUri().toString().contains("/target/classes/")).orElse(false));

    private static JavaClasses all;

    private ProjectClasses() {
    }

    /** Main and test classes of every module. */
    static synchronized JavaClasses all() {
        if (all == null) {
            all = importTheProject();
        }
        return all;
    }

    /** Main classes of every module: what the services and tools run. */
    static JavaClasses main() {
        return all().that(MAIN);
    }

    private static JavaClasses importTheProject() {
        Path root = Path.of("..").toAbsolutePath().normalize();
        List<Path> folders = new ArrayList<>();
        String pom;
        try {
            pom = Files.readString(root.resolve("pom.xml"));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(pom);
        while (module.find()) {
            if (module.group(1).equals("architecture-tests")) {
                continue; // this module's own classes hold the planted violations
            }
            Path target = root.resolve(module.group(1)).resolve("target");
            for (String classes : List.of("classes", "test-classes")) {
                if (Files.isDirectory(target.resolve(classes))) {
                    folders.add(target.resolve(classes));
                }
            }
        }
        JavaClasses project = new ClassFileImporter().importPaths(folders);
        for (String part : List.of("orderservice", "kitchenscreen", "analyticsdashboard", "reportreplayer",
                "backlogmonitor", "support", "events", "testing", "localstack", "load", "chaos", "bench", "demo",
                "controlroom", "scenarios", "lesson", "processes")) {
            assertThat(project.containPackage("dev.lunchrush." + part))
                    .as("the compiled classes of dev.lunchrush.%s (build the project first: ./mvnw test-compile)", part)
                    .isTrue();
        }
        return project;
    }
}
