package dev.lunchrush.orderservice.stats;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.orderservice.act.ActState;
import dev.lunchrush.orderservice.act.CurrentAct;
import dev.lunchrush.orderservice.feed.FeedFigures;
import dev.lunchrush.orderservice.feed.OrderFeed;
import dev.lunchrush.orderservice.intake.OrderEvents;
import dev.lunchrush.orderservice.intake.OrderIntake;
import dev.lunchrush.support.HeapFigures;

/** {@code GET /api/stats}: what the readers compare their counts with, and what the rush table shows. */
@RestController
class StatsController {

    private final CurrentAct currentAct;
    private final OrderIntake intake;
    private final OrderEvents orderEvents;
    private final OrderFeed feed;

    StatsController(CurrentAct currentAct, OrderIntake intake, OrderEvents orderEvents, OrderFeed feed) {
        this.currentAct = currentAct;
        this.intake = intake;
        this.orderEvents = orderEvents;
        this.feed = feed;
    }

    @Operation(summary = "Orders placed, the act, the feed's figures and the heap: what the readers and the rush compare with")
    @ApiResponse(responseCode = "200", description = "The figures now")
    @GetMapping(path = "/api/stats", produces = MediaType.APPLICATION_JSON_VALUE)
    Stats stats() {
        ActState act = currentAct.get();
        FeedFigures figures = feed.figures();
        return new Stats(act.act().id(), act.strategy().id(), act.capacity(), orderEvents.run(), intake.placedTotal(),
                new Feed(figures.buffered(), figures.bufferedBytes(), figures.delivered(), figures.dropped(),
                        figures.rejected(), figures.accepted()),
                HeapFigures.now());
    }

    /** The shape of docs/ARCHITECTURE.md; {@code feed.accepted} is extra. */
    record Stats(String act, String strategy, int capacity, String run, long placed, Feed feed, HeapFigures heap) {
    }

    record Feed(long buffered, long bufferedBytes, long delivered, long dropped, long rejected, long accepted) {
    }
}
