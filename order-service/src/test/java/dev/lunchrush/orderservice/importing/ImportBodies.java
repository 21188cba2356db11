package dev.lunchrush.orderservice.importing;

import java.util.List;

/** Bodies of {@code POST /admin/orders/import} for the import's tests. */
final class ImportBodies {

    private ImportBodies() {
    }

    /** One past order of kitchen k3 (two portions of {@code dish}). */
    static String order(String placedAt, String customer, String dish) {
        return """
                {"placedAt":"%s","kitchenId":"k3","customerId":"%s","items":[{"dish":"%s","quantity":2}],
                 "deliveryAddress":"12 Mill Lane","notes":"imported"}""".formatted(placedAt, customer, dish);
    }

    static String array(List<String> orders) {
        return "[" + String.join(",", orders) + "]";
    }
}
