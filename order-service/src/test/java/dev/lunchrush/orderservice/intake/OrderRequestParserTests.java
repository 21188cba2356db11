package dev.lunchrush.orderservice.intake;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import dev.lunchrush.events.OrderItem;
import dev.lunchrush.events.OrderLimits;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.orderservice.menu.Menu;
import dev.lunchrush.support.problems.FieldProblem;
import dev.lunchrush.support.problems.ProblemException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The order's shape checked by hand, its constraints by Bean Validation (declared on the records), its kitchen and
 * dishes against the menu: every wrong field named in one answer, each once, with the limit it broke.
 */
class OrderRequestParserTests {

    private static final ValidatorFactory VALIDATION = Validation.buildDefaultValidatorFactory();

    private final OrderRequestParser parser = new OrderRequestParser(
            new Menu(List.of(new Menu.Kitchen("k3", "Thai", List.of("pad-thai", "green-curry")))), VALIDATION.getValidator());

    @AfterAll
    static void close() {
        VALIDATION.close();
    }

    @Test
    void aValidOrderIsTheRecord() {
        OrderRequest order = parser.parseOrder(bytes("""
                {"kitchenId":"k3","customerId":"c-1","items":[{"dish":"pad-thai","quantity":2}],"deliveryAddress":"12 Mill Lane"}"""));

        assertThat(order).isEqualTo(new OrderRequest("k3", "c-1", List.of(new OrderItem("pad-thai", 2)), "12 Mill Lane", null));
    }

    @Test
    void everyConstraintBrokenIsListedWithItsLimit() {
        String tooLong = "x".repeat(OrderLimits.MAX_ID_LENGTH + 1);
        Map<String, String> errors = errors("""
                {"kitchenId":"","customerId":"%s","items":[{"dish":"pad-thai","quantity":0},{"dish":"green-curry","quantity":51}],
                 "notes":"%s"}""".formatted(tooLong, "n".repeat(OrderLimits.MAX_NOTES_LENGTH + 1)));

        assertThat(errors).containsOnly(
                Map.entry("kitchenId", OrderLimits.REQUIRED),
                Map.entry("customerId", "must be at most 64 characters"),
                Map.entry("deliveryAddress", OrderLimits.REQUIRED),
                Map.entry("items[0].quantity", "must be at least 1"),
                Map.entry("items[1].quantity", "must be at most 50"),
                Map.entry("notes", "must be at most 4000 characters"));
    }

    @Test
    void aWrongShapeIsNamedOnceAndTheOtherFieldsAreStillChecked() {
        Map<String, String> errors = errors("""
                {"kitchenId":"k3","customerId":7,"items":[{"dish":"nope","quantity":1.5},"soup"],"extra":true}""");

        assertThat(errors).containsOnly(
                Map.entry("extra", "unknown field; allowed are customerId, deliveryAddress, items, kitchenId, notes"),
                Map.entry("customerId", "must be a string, was the number 7"),
                Map.entry("items[0].dish", "'nope' is not on the menu of kitchen k3; it cooks pad-thai, green-curry"),
                Map.entry("items[0].quantity", "must be a whole number, was the number 1.5"),
                Map.entry("items[1]", "must be an object {dish, quantity}"),
                Map.entry("deliveryAddress", OrderLimits.REQUIRED));
    }

    @Test
    void tooManyItemsIsOneErrorAndNoneIsRead() {
        String item = "{\"dish\":\"pad-thai\",\"quantity\":1}";
        String items = String.join(",", java.util.Collections.nCopies(OrderLimits.MAX_ITEMS + 1, item));

        assertThat(errors("""
                {"kitchenId":"k3","customerId":"c-1","items":[%s],"deliveryAddress":"x"}""".formatted(items)))
                .containsOnly(Map.entry("items", "must have 1 to 20 items"));
        assertThat(errors("""
                {"kitchenId":"k3","customerId":"c-1","items":[],"deliveryAddress":"x"}"""))
                .containsOnly(Map.entry("items", "must have 1 to 20 items"));
    }

    @Test
    void theKitchenAndEachDishMustBeOnTheMenu() {
        assertThat(errors("""
                {"kitchenId":"k9","customerId":"c-1","items":[{"dish":"pad-thai","quantity":1}],"deliveryAddress":"x"}"""))
                .containsOnly(Map.entry("kitchenId", "kitchen 'k9' is not on the menu; see GET /menu"));
        assertThat(errors("""
                {"kitchenId":"k3","customerId":"c-1","items":[{"dish":"pizza","quantity":1}],"deliveryAddress":"x"}"""))
                .containsOnly(Map.entry("items[0].dish", "'pizza' is not on the menu of kitchen k3; it cooks pad-thai, green-curry"));
    }

    private Map<String, String> errors(String body) {
        ProblemException problem = catchThrowableOfType(ProblemException.class, () -> parser.parseOrder(bytes(body)));
        assertThat(problem).as("refused: " + body).isNotNull();
        List<FieldProblem> errors = problem.errors();
        assertThat(errors.stream().map(FieldProblem::field).distinct()).as("each field once").hasSameSizeAs(errors);
        return errors.stream().collect(Collectors.toMap(FieldProblem::field, FieldProblem::message));
    }

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
