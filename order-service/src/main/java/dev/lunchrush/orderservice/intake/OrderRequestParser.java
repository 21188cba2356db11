package dev.lunchrush.orderservice.intake;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

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
 * Turns request bytes into an {@link OrderRequest}, or into a 400 that names every field that is
 * wrong. It reads the JSON as a tree and checks it by hand rather than binding it to the record:
 * binding stops at the first error and cannot tell "missing" from "wrong type" from "unknown field"
 * in a way a client can act on. Used by {@code POST /orders} and, per element, by the import. The limits are
 * {@link OrderLimits}: those every reader holds, and beyond which the codec refuses a record whoever wrote it.
 */
@Component
public class OrderRequestParser {

    static final Set<String> ORDER_FIELDS = Set.of("kitchenId", "customerId", "items", "deliveryAddress", "notes");

    private static final Set<String> ITEM_FIELDS = Set.of("dish", "quantity");

    private final Menu menu;

    OrderRequestParser(Menu menu) {
        this.menu = menu;
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
        for (String name : node.propertyNames()) {
            if (!allowed.contains(name)) {
                errors.add(new FieldProblem(path(prefix, name), "unknown field; allowed are " + String.join(", ", sorted(allowed))));
            }
        }
        String kitchenId = requiredText(node, prefix, "kitchenId", OrderLimits.MAX_ID_LENGTH, errors);
        String customerId = requiredText(node, prefix, "customerId", OrderLimits.MAX_ID_LENGTH, errors);
        String deliveryAddress = requiredText(node, prefix, "deliveryAddress", OrderLimits.MAX_ADDRESS_LENGTH, errors);
        String notes = optionalText(node, prefix, "notes", OrderLimits.MAX_NOTES_LENGTH, errors);
        Optional<Menu.Kitchen> kitchen = Optional.empty();
        if (kitchenId != null) {
            kitchen = menu.kitchen(kitchenId);
            if (kitchen.isEmpty()) {
                errors.add(new FieldProblem(path(prefix, "kitchenId"), "kitchen '" + kitchenId
                        + "' is not on the menu; see GET /menu"));
            }
        }
        List<OrderItem> items = items(node, prefix, kitchen, errors);
        if (errors.size() > before || kitchenId == null || customerId == null || deliveryAddress == null || items == null) {
            return null;
        }
        return new OrderRequest(kitchenId, customerId, items, deliveryAddress, notes);
    }

    private @Nullable List<OrderItem> items(JsonNode node, String prefix, Optional<Menu.Kitchen> kitchen,
            List<FieldProblem> errors) {
        String field = path(prefix, "items");
        JsonNode items = node.get("items");
        if (items == null || items.isNull()) {
            errors.add(new FieldProblem(field, "is required"));
            return null;
        }
        if (!items.isArray()) {
            errors.add(new FieldProblem(field, "must be an array of {dish, quantity}"));
            return null;
        }
        if (items.isEmpty()) {
            errors.add(new FieldProblem(field, "must have at least one item"));
            return null;
        }
        if (items.size() > OrderLimits.MAX_ITEMS) {
            errors.add(new FieldProblem(field, "has " + items.size() + " items; at most " + OrderLimits.MAX_ITEMS));
            return null;
        }
        List<OrderItem> result = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String itemPath = field + "[" + i + "]";
            JsonNode item = items.get(i);
            if (!item.isObject()) {
                errors.add(new FieldProblem(itemPath, "must be an object {dish, quantity}"));
                continue;
            }
            for (String name : item.propertyNames()) {
                if (!ITEM_FIELDS.contains(name)) {
                    errors.add(new FieldProblem(itemPath + "." + name, "unknown field; allowed are dish, quantity"));
                }
            }
            String dish = requiredText(item, itemPath, "dish", OrderLimits.MAX_ID_LENGTH, errors);
            if (dish != null && kitchen.isPresent() && !kitchen.get().dishes().contains(dish)) {
                errors.add(new FieldProblem(itemPath + ".dish", "'" + dish + "' is not on the menu of kitchen "
                        + kitchen.get().id() + "; it cooks " + String.join(", ", kitchen.get().dishes())));
            }
            Integer quantity = quantity(item, itemPath + ".quantity", errors);
            if (dish != null && quantity != null) {
                result.add(new OrderItem(dish, quantity));
            }
        }
        return result;
    }

    private @Nullable Integer quantity(JsonNode item, String field, List<FieldProblem> errors) {
        JsonNode value = item.get("quantity");
        if (value == null || value.isNull()) {
            errors.add(new FieldProblem(field, "is required"));
            return null;
        }
        if (!value.isIntegralNumber()) {
            errors.add(new FieldProblem(field, "must be a whole number, was " + kind(value)));
            return null;
        }
        if (!value.canConvertToInt() || value.intValue() > OrderLimits.MAX_QUANTITY) {
            errors.add(new FieldProblem(field, "must be at most " + OrderLimits.MAX_QUANTITY + ", was " + value));
            return null;
        }
        if (value.intValue() <= 0) {
            errors.add(new FieldProblem(field, "must be at least 1, was " + value.intValue()));
            return null;
        }
        return value.intValue();
    }

    static @Nullable String requiredText(JsonNode node, String prefix, String name, int maxLength, List<FieldProblem> errors) {
        String field = path(prefix, name);
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            errors.add(new FieldProblem(field, "is required"));
            return null;
        }
        if (!value.isString()) {
            errors.add(new FieldProblem(field, "must be a string, was " + kind(value)));
            return null;
        }
        String text = value.stringValue();
        if (text.isBlank()) {
            errors.add(new FieldProblem(field, "must not be blank"));
            return null;
        }
        if (text.length() > maxLength) {
            errors.add(new FieldProblem(field, "must be at most " + maxLength + " characters, was " + text.length()));
            return null;
        }
        return text;
    }

    private static @Nullable String optionalText(JsonNode node, String prefix, String name, int maxLength,
            List<FieldProblem> errors) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString()) {
            errors.add(new FieldProblem(path(prefix, name), "must be a string, was " + kind(value)));
            return null;
        }
        if (value.stringValue().length() > maxLength) {
            errors.add(new FieldProblem(path(prefix, name), "must be at most " + maxLength + " characters"));
            return null;
        }
        return value.stringValue();
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
