package dev.lunchrush.kitchenscreen.screen;

import java.util.List;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
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

    /** One order, if this screen has shown it: what a check after a fault asks of every acknowledged order. */
    @GetMapping("/api/orders/{orderId}")
    ShownOrder order(@PathVariable String orderId) {
        return screen.find(orderId).orElseThrow(() -> {
            ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND,
                    "order " + orderId + " has not been shown on this screen (or was shown longer ago than it remembers)");
            problem.setTitle("Order not shown");
            return new ErrorResponseException(HttpStatus.NOT_FOUND, problem, null);
        });
    }

    @GetMapping("/stream")
    SseEmitter stream() {
        return stream.open();
    }
}
