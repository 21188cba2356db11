package dev.lunchrush.architecture;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

import dev.lunchrush.events.Act;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

/**
 * An act is one unit: behaviour that differs by act is a class per act, picked by one registry, never a
 * {@code switch} on the act or a comparison with one of its constants. In the bytecode a {@code switch} on an enum
 * of another class reads a synthetic {@code $SwitchMap$dev$lunchrush$events$Act} field and calls
 * {@code Act.ordinal()} (the compiler puts that field in a class it nests, {@code $1}); a comparison (or any use of a
 * constant) reads a static field of {@link Act} such as {@code Act.LOG}. Allowed to do either: the enum itself and the registries, exactly
 * {@code dev.lunchrush.orderservice.act.Acts} (the order service's act classes) and {@code dev.lunchrush.lesson.Lessons}
 * (the lesson's), each with the classes the compiler nests in it.
 */
final class ActRules {

    static final String ACT = Act.class.getName();

    static final List<String> REGISTRIES = List.of(ACT, "dev.lunchrush.orderservice.act.Acts", "dev.lunchrush.lesson.Lessons");

    private static final String SWITCH_MAP = "$SwitchMap$" + ACT.replace('.', '$');

    private static final Set<String> CONSTANTS = Arrays.stream(Act.values()).map(Enum::name).collect(Collectors.toSet());

    static final DescribedPredicate<JavaClass> OUTSIDE_THE_REGISTRIES = DescribedPredicate.describe(
            "are outside the registries " + REGISTRIES, type -> REGISTRIES.stream()
                    .noneMatch(registry -> type.getName().equals(registry) || type.getName().startsWith(registry + "$")));

    static final ArchCondition<JavaClass> NOT_CHOOSE_BY_THE_ACT = new ArchCondition<>(
            "neither switch on " + ACT + " nor compare it to one of its constants") {
        @Override
        public void check(JavaClass type, ConditionEvents events) {
            type.getFields().stream().filter(field -> field.getName().equals(SWITCH_MAP)).forEach(field -> events.add(
                    new SimpleConditionEvent(type, false, type.getName() + " switches on the act (holds its switch map) in "
                            + type.getSourceCodeLocation())));
            for (JavaFieldAccess access : type.getFieldAccessesFromSelf()) {
                String owner = access.getTargetOwner().getName();
                String name = access.getTarget().getName();
                if (name.equals(SWITCH_MAP)) {
                    events.add(violated(type, access, "switches on the act"));
                }
                else if (owner.equals(ACT) && CONSTANTS.contains(name)) {
                    events.add(violated(type, access, "names the act's constant " + name));
                }
            }
            type.getMethodCallsFromSelf().stream()
                    .filter(call -> call.getTargetOwner().getName().equals(ACT) && call.getTarget().getName().equals("ordinal"))
                    .forEach(call -> events.add(violated(type, call, "takes the act's ordinal (a switch)")));
        }
    };

    /** Over the main code of every module: no class outside the registries chooses by the act. */
    static final ArchRule ONE_REGISTRY_PER_SIDE = classes().that(OUTSIDE_THE_REGISTRIES).should(NOT_CHOOSE_BY_THE_ACT)
            .because("an act is one unit: one class per act behind one interface, picked by one registry "
                    + "(docs/ARCHITECTURE.md, \"Adding an act\")");

    private ActRules() {
    }

    private static SimpleConditionEvent violated(JavaClass type, JavaAccess<?> access, String what) {
        return new SimpleConditionEvent(type, false, type.getName() + " " + what + " in " + access.getSourceCodeLocation());
    }
}
