package dev.lunchrush.orderservice.menu;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The menu, from {@code lunchrush.menu}: what a client may order.
 *
 * @param kitchens the kitchens, each with its id, name and dishes
 */
@Validated
@ConfigurationProperties("lunchrush.menu")
public record MenuProperties(@NotEmpty List<@Valid KitchenProperties> kitchens) {

    public Menu toMenu() {
        return new Menu(kitchens.stream()
                .map(kitchen -> new Menu.Kitchen(kitchen.id(), kitchen.name(), kitchen.dishes()))
                .toList());
    }

    /** One kitchen of the menu. */
    public record KitchenProperties(@NotBlank String id, @NotBlank String name, @NotEmpty List<@NotBlank String> dishes) {
    }
}
