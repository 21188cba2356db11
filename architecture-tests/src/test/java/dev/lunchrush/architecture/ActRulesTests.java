package dev.lunchrush.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link ActRules} over the project's main code, and over two planted classes that break it. */
class ActRulesTests {

    @Test
    void noMainClassOutsideTheRegistriesSwitchesOnTheActOrComparesIt() {
        ActRules.ONE_REGISTRY_PER_SIDE.check(ProjectClasses.main());
    }

    @Test
    void theRuleSeesTheMainCodeOfServicesAndTools() {
        JavaClasses main = ProjectClasses.main();
        assertThat(main.contain("dev.lunchrush.orderservice.act.Acts")).isTrue();
        assertThat(main.contain("dev.lunchrush.chaos.Scenario")).isTrue();
        assertThat(main.contain("dev.lunchrush.demo.ActCommand")).isTrue();
        assertThat(main.stream().noneMatch(type -> type.getSimpleName().endsWith("Tests"))).isTrue();
    }

    @Test
    void aPlantedSwitchOnTheActAndAPlantedComparisonBreakTheRule() {
        JavaClasses planted = new ClassFileImporter().importPackages("dev.lunchrush.architecture.planted.acts");
        assertThat(planted.contain("dev.lunchrush.architecture.planted.acts.SwitchesOnTheAct")).isTrue();
        EvaluationResult result = ActRules.ONE_REGISTRY_PER_SIDE.evaluate(planted);
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().toString())
                .contains("SwitchesOnTheAct takes the act's ordinal")
                .contains("SwitchesOnTheAct$1 switches on the act (holds its switch map)")
                .contains("ComparesTheAct names the act's constant LOG");
    }
}
