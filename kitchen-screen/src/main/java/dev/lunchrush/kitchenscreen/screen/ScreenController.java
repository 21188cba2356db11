package dev.lunchrush.kitchenscreen.screen;

import java.util.List;
import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** The screen's HTTP side: counts, columns, and the live stream the page listens to. */
@RestController
class ScreenController {

    private final KitchenScreen screen;
    private final ScreenStream stream;

    ScreenController(KitchenScreen screen, ScreenStream stream) {
        this.screen = screen;
        this.stream = stream;
    }

    @GetMapping("/api/stats")
    ScreenStats stats() {
        return screen.stats();
    }

    @GetMapping("/api/kitchens")
    Map<String, List<ShownOrder>> kitchens() {
        return screen.columns();
    }

    @GetMapping("/stream")
    SseEmitter stream() {
        return stream.open();
    }
}
