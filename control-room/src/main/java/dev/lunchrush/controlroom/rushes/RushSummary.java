package dev.lunchrush.controlroom.rushes;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.load.rush.LiveRow;

/**
 * The rush under way (or the last one), as the lesson tells it every second: its state, and its latest row; the page
 * asks {@code GET /api/rushes/{id}} for the rest.
 *
 * @param rows how many rows it has had
 * @param latest its latest row, null before the first second
 */
public record RushSummary(String id, String state, String description, int rows, @Nullable LiveRow latest) {
}
