package dev.lunchrush.orderservice.menu;

import java.util.List;
import java.util.Optional;

/**
 * The answer of {@code GET /menu}: the kitchens and the dishes each one cooks, as configured
 * ({@link MenuProperties}). The clients read the same JSON into a record of their own.
 */
public record Menu(List<Kitchen> kitchens) {

    public Menu {
        kitchens = List.copyOf(kitchens);
    }

    public Optional<Kitchen> kitchen(String id) {
        return kitchens.stream().filter(kitchen -> kitchen.id().equals(id)).findFirst();
    }

    /** A kitchen of the menu. */
    public record Kitchen(String id, String name, List<String> dishes) {

        public Kitchen {
            dishes = List.copyOf(dishes);
        }
    }
}
