package dev.lunchrush.kitchenscreen.screen;

import java.time.Instant;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.when;

/**
 * {@code GET /api/orders/{orderId}}'s web edge, the screen mocked: an order shown is answered as shown, one never
 * shown (or forgotten) is a 404 in {@code application/problem+json}, which a check after a fault tells from an error.
 * That an order read from a queue is found by its id is {@code KitchenScreenTests}'.
 */
@WebMvcTest(ScreenController.class)
class ScreenControllerTests {

    @Autowired
    private MockMvcTester mvc;

    @MockitoBean
    private KitchenScreen screen;

    @MockitoBean
    private ScreenStream stream;

    @Test
    void anOrderShownIsAnsweredAsShown() {
        Instant placed = Instant.parse("2026-11-26T12:20:00Z");
        when(screen.find("o-4")).thenReturn(Optional.of(new ShownOrder("o-4", "k1", "run-1", 4, placed,
                placed.plusMillis(120), "c-1042", "2x pad-thai", "own-queue", 120, null)));

        assertThat(mvc.get().uri("/api/orders/{orderId}", "o-4")).hasStatusOk().bodyJson()
                .isLenientlyEqualTo("""
                        {"orderId": "o-4", "kitchenId": "k1", "run": "run-1", "sequence": 4, "source": "own-queue",
                         "latencyMillis": 120}""");
    }

    @Test
    void anOrderNeverShownIsA404Problem() {
        when(screen.find("never")).thenReturn(Optional.empty());

        assertThat(mvc.get().uri("/api/orders/{orderId}", "never")).hasStatus(HttpStatus.NOT_FOUND)
                .hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyJson().extractingPath("$.title").isEqualTo("Order not shown");
    }
}
