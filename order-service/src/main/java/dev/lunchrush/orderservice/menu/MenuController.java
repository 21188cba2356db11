package dev.lunchrush.orderservice.menu;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.events.Menu;

@RestController
class MenuController {

    private final Menu menu;

    MenuController(Menu menu) {
        this.menu = menu;
    }

    @GetMapping("/menu")
    Menu menu() {
        return menu;
    }
}
