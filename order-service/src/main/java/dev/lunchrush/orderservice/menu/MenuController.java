package dev.lunchrush.orderservice.menu;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class MenuController {

    private final Menu menu;

    MenuController(Menu menu) {
        this.menu = menu;
    }

    @Operation(summary = "The kitchens and their dishes: what a client may order")
    @ApiResponse(responseCode = "200", description = "The menu")
    @GetMapping(path = "/menu", produces = MediaType.APPLICATION_JSON_VALUE)
    Menu menu() {
        return menu;
    }
}
