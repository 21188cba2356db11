package dev.lunchrush.load.menu;

import java.util.List;
import java.util.Optional;

/**
 * The order service's answer to {@code GET /menu}, as the load, the fault suite and the bench read it: the
 * kitchens and the dishes each one cooks.
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
