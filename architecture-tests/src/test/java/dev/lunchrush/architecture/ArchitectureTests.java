package dev.lunchrush.architecture;

import java.util.ArrayList;
import java.util.List;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The layout's rules over the compiled classes of every module of the root pom, main and test: no import cycle
 * between any two packages; the services and what they share never import the tools; the tools never import a
 * service's classes (only the order event, {@code dev.lunchrush.events}); the control room, a web application
 * itself, also uses what the services share for the web (their admin users, their page streams); nothing imports
 * the command line.
 */
class ArchitectureTests {

    /** The services' packages, and what they share at run time. */
    static final String[] SERVICES = {"dev.lunchrush.orderservice..", "dev.lunchrush.kitchenscreen..",
        "dev.lunchrush.analyticsdashboard..", "dev.lunchrush.reportreplayer..", "dev.lunchrush.backlogmonitor..",
        "dev.lunchrush.support..", "dev.lunchrush.events.."};

    /** The tools' packages: the local stack, the load, the fault suite, the benchmark, the command line. */
    static final String[] TOOLS = {"dev.lunchrush.localstack..", "dev.lunchrush.load..", "dev.lunchrush.chaos..",
        "dev.lunchrush.bench..", "dev.lunchrush.demo..", "dev.lunchrush.microbench..", "dev.lunchrush.controlroom.."};

    /** Every package is a slice of its own: a cycle between any two packages breaks the rule. */
    static final ArchRule NO_CYCLES = slices().matching("dev.lunchrush.(**)").should().beFreeOfCycles();

    private static JavaClasses project;

    @BeforeAll
    static void importTheProject() {
        project = ProjectClasses.all();
    }

    @Test
    void noPackageImportsAnotherThatImportsItBack() {
        NO_CYCLES.check(project);
    }

    @Test
    void servicesNeverImportTheTools() {
        noClasses().that().resideInAnyPackage(SERVICES).should().dependOnClassesThat().resideInAnyPackage(TOOLS)
                .check(project);
    }

    @Test
    void toolsNeverImportAServicesClasses() {
        noClasses().that().resideInAnyPackage(TOOLS).should().dependOnClassesThat()
                .resideInAnyPackage("dev.lunchrush.orderservice..", "dev.lunchrush.kitchenscreen..",
                        "dev.lunchrush.analyticsdashboard..", "dev.lunchrush.reportreplayer..",
                        "dev.lunchrush.backlogmonitor..")
                .check(project);
        noClasses().that().resideInAnyPackage(TOOLS).and().resideOutsideOfPackage("dev.lunchrush.controlroom..")
                .should().dependOnClassesThat().resideInAPackage("dev.lunchrush.support..").check(project);
    }

    @Test
    void noServiceImportsAnotherService() {
        String[] services = {"orderservice", "kitchenscreen", "analyticsdashboard", "reportreplayer", "backlogmonitor"};
        for (String service : services) {
            List<String> others = new ArrayList<>();
            for (String other : services) {
                if (!other.equals(service)) {
                    others.add("dev.lunchrush." + other + "..");
                }
            }
            noClasses().that().resideInAPackage("dev.lunchrush." + service + "..").should().dependOnClassesThat()
                    .resideInAnyPackage(others.toArray(String[]::new)).check(project);
        }
    }

    @Test
    void nothingButItsOwnTestsImportsTheCommandLine() {
        noClasses().that().resideOutsideOfPackage("dev.lunchrush.demo..").should().dependOnClassesThat()
                .resideInAPackage("dev.lunchrush.demo..").check(project);
    }

    @Test
    void aPlantedCycleBreaksTheRule() {
        // two packages of this module's tests that import each other: the rule that holds the project must see it
        JavaClasses planted = new ClassFileImporter().importPackages("dev.lunchrush.architecture.planted");
        assertThat(planted.containPackage("dev.lunchrush.architecture.planted.kitchen")).isTrue();
        assertThat(NO_CYCLES.evaluate(planted).hasViolation()).isTrue();
        assertThat(NO_CYCLES.evaluate(planted).getFailureReport().toString())
                .contains("planted.kitchen").contains("planted.till");
    }
}
