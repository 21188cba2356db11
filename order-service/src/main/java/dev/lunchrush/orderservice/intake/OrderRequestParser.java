package dev.lunchrush.orderservice.intake;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderItem;
import dev.lunchrush.events.OrderLimits;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.orderservice.menu.Menu;
import dev.lunchrush.support.problems.FieldProblem;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.orderservice.web.JsonBodies;

/**
 * Turns request bytes into an {@link OrderRequest}, or into a 400 that names every field that is wrong. The JSON is
 * read as a tree and its shape checked here (an object, no unknown field, each field of its JSON type), because binding
 * stops at the first such error; the values are then bound to the record and its constraints checked by Bean
 * Validation (declared once on {@link OrderRequest} and {@link OrderItem}, from {@link OrderLimits}); last, the menu:
 * the kitchen and each dish must be on it. Used by {@code POST /orders} and, per element, by the import.
 */
@Component
public class OrderRequestParser {

    static final Set<String> ORDER_FIELDS = Set.of("kitchenId", "customerId", "items", "deliveryAddress", "notes");

    private static final Set<String> ITEM_FIELDS = Set.of("dish", "quantity");

    private final Menu menu;

    private final Validator validator;

    OrderRequestParser(Menu menu, Validator validator) {
        this.menu = menu;
        this.validator = validator;
    }

    /** The order of a {@code POST /orders} body. */
    public OrderRequest parseOrder(byte[] body) {
        JsonNode root = JsonBodies.readTree(body, "Invalid order");
        List<FieldProblem> errors = new ArrayList<>();
        OrderRequest order = validate(root, "", ORDER_FIELDS, errors);
        if (order == null || !errors.isEmpty()) {
            throw ProblemException.invalid("Invalid order", errors);
        }
        return order;
    }

    /**
     * Checks one order object; adds what is wrong to {@code errors} with {@code prefix} before each
     * field name, and returns the order when nothing was wrong with it.
     *
     * @param allowed the fields this object may have (the import adds {@code placedAt})
     */
    public @Nullable OrderRequest validate(JsonNode node, String prefix, Set<String> allowed, List<FieldProblem> errors) {
        int before = errors.size();
        if (!node.isObject()) {
            errors.add(new FieldProblem(prefix, "must be a JSON object"));
            return null;
        }
        Set<String> wrong = new HashSet<>();
        for (String name : node.propertyNames()) {
            if (!allowed.contains(name)) {
                errors.add(new FieldProblem(path(prefix, name), "unknown field; allowed are " + String.join(", ", sorted(allowed))));
            }
        }
        OrderRequest order = new OrderRequest(text(node, prefix, "kitchenId", errors, wrong),
                text(node, prefix, "customerId", errors, wrong), items(node, prefix, errors, wrong),
                text(node, prefix, "deliveryAddress", errors, wrong), text(node, prefix, "notes", errors, wrong));
        Map<String, ConstraintViolation<OrderRequest>> violations = new TreeMap<>();
        for (ConstraintViolation<OrderRequest> violation : validator.validate(order)) {
            // one message a field: "required" before any other of the same field
            violations.merge(path(prefix, violation.getPropertyPath().toString()), violation,
                    (one, other) -> required(other) && !required(one) ? other : one);
        }
        violations.forEach((field, violation) -> {
            if (!wrong.contains(field)) {
                wrong(field, violation.getMessage(), errors, wrong);
            }
        });
        onTheMenu(order, prefix, errors, wrong);
        return errors.size() > before ? null : order;
    }

    private static boolean required(ConstraintViolation<?> violation) {
        Object constraint = violation.getConstraintDescriptor().getAnnotation();
        return constraint instanceof NotNull || constraint instanceof NotBlank;
    }

    /** The kitchen, and each dish in the kitchen's, must be on the menu (of fields not wrong already). */
    private void onTheMenu(OrderRequest order, String prefix, List<FieldProblem> errors, Set<String> wrong) {
        String kitchenField = path(prefix, "kitchenId");
        if (wrong.contains(kitchenField)) {
            return;
        }
        Optional<Menu.Kitchen> kitchen = menu.kitchen(order.kitchenId());
        if (kitchen.isEmpty()) {
            errors.add(new FieldProblem(kitchenField, "kitchen '" + order.kitchenId() + "' is not on the menu; see GET /menu"));
            return;
        }
        if (order.items() == null || wrong.contains(path(prefix, "items"))) {
            return;
        }
        for (int i = 0; i < order.items().size(); i++) {
            OrderItem item = order.items().get(i);
            String dishField = path(prefix, "items[" + i + "].dish");
            if (item != null && !wrong.contains(dishField) && !kitchen.get().dishes().contains(item.dish())) {
                errors.add(new FieldProblem(dishField, "'" + item.dish() + "' is not on the menu of kitchen "
                        + kitchen.get().id() + "; it cooks " + String.join(", ", kitchen.get().dishes())));
            }
        }
    }

    /**
     * The items, index for index: an item that is not an object is {@code null} (Bean Validation does not cascade into
     * it). More than {@link OrderLimits#MAX_ITEMS} are not read one by one: their count alone is the error.
     */
    private @Nullable List<@Nullable OrderItem> items(JsonNode node, String prefix, List<FieldProblem> errors,
            Set<String> wrong) {
        String field = path(prefix, "items");
        JsonNode items = node.get("items");
        if (items == null || items.isNull()) {
            return null;
        }
        if (!items.isArray()) {
            wrong(field, "must be an array of {dish, quantity}", errors, wrong);
            return null;
        }
        if (items.size() > OrderLimits.MAX_ITEMS) {
            return Collections.nCopies(items.size(), null);
        }
        List<@Nullable OrderItem> result = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String itemPath = field + "[" + i + "]";
            JsonNode item = items.get(i);
            if (!item.isObject()) {
                wrong(itemPath, "must be an object {dish, quantity}", errors, wrong);
                result.add(null);
                continue;
            }
            for (String name : item.propertyNames()) {
                if (!ITEM_FIELDS.contains(name)) {
                    errors.add(new FieldProblem(itemPath + "." + name, "unknown field; allowed are dish, quantity"));
                }
            }
            String dish = text(item, itemPath, "dish", errors, wrong);
            Integer quantity = quantity(item, itemPath + ".quantity", errors, wrong);
            // a quantity that did not bind stands in as 1: its field is named already, the dish is still checked
            result.add(new OrderItem(dish, quantity == null ? 1 : quantity));
        }
        return result;
    }

    /**
     * A quantity that binds to an {@code int}, else {@code null} with what is wrong: missing, not a whole number, or
     * beyond an {@code int} (its range is then Bean Validation's to judge).
     */
    private static @Nullable Integer quantity(JsonNode item, String field, List<FieldProblem> errors, Set<String> wrong) {
        JsonNode value = item.get("quantity");
        if (value == null || value.isNull()) {
            wrong(field, "is required", errors, wrong);
            return null;
        }
        if (!value.isIntegralNumber()) {
            wrong(field, "must be a whole number, was " + kind(value), errors, wrong);
            return null;
        }
        if (!value.canConvertToInt()) {
            wrong(field, "must be at most " + OrderLimits.MAX_QUANTITY + ", was " + value, errors, wrong);
            return null;
        }
        return value.intValue();
    }

    /** A text field's value; {@code null} when it is missing or null (Bean Validation judges that), or not a string. */
    private static @Nullable String text(JsonNode node, String prefix, String name, List<FieldProblem> errors,
            Set<String> wrong) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString()) {
            wrong(path(prefix, name), "must be a string, was " + kind(value), errors, wrong);
            return null;
        }
        return value.stringValue();
    }

    private static void wrong(String field, String message, List<FieldProblem> errors, Set<String> wrong) {
        wrong.add(field);
        errors.add(new FieldProblem(field, message));
    }

    static String path(String prefix, String name) {
        return prefix.isEmpty() ? name : prefix + "." + name;
    }

    static String kind(JsonNode value) {
        if (value.isString()) {
            return "a string";
        }
        if (value.isNumber()) {
            return "the number " + value;
        }
        if (value.isBoolean()) {
            return value.toString();
        }
        if (value.isArray()) {
            return "an array";
        }
        if (value.isObject()) {
            return "an object";
        }
        return value.getNodeType().toString().toLowerCase();
    }

    private static List<String> sorted(Set<String> names) {
        return names.stream().sorted().toList();
    }
}
