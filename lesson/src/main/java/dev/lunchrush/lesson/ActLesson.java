package dev.lunchrush.lesson;

import java.util.List;
import java.util.function.ToLongFunction;

import org.jspecify.annotations.Nullable;

/**
 * What the lesson knows of one act: where its readers' orders and unread events are, what it predicts for a rush,
 * and the closing lines that set the rush's measured figures against those predictions. One class per act, picked
 * by {@link Lessons}; nothing outside these classes asks which act it is.
 */
public interface ActLesson {

    /**
     * Whether the order service keeps unsent events in its own memory in this act: the feed's figures are this act's
     * (its live table shows them), its memory grows with them, and they die with the service.
     */
    boolean keepsAFeed();

    /**
     * Whether the readers compete for each order on one queue: a reader's count is then what it got from that
     * queue (not what another act left in its own), and between them they get every order once.
     */
    boolean readersCompete();

    /** The prediction of where the orders placed end up, once the readers have settled. */
    boolean everyOrderArrived(long placed, long kitchenGot, long dashboardGot);

    /** The backlog monitor's reader that holds the kitchen screen's unread events in this act. */
    String kitchenReader();

    /**
     * The analytics dashboard's unread events in this act, -1 when the one who knows did not answer.
     *
     * @param stats the order service's figures, null when it did not answer
     * @param unreadOf a backlog monitor reader's unread events by its name, -1 when unknown
     */
    long dashboardBacklog(Snapshot.@Nullable OrderServiceStats stats, ToLongFunction<String> unreadOf);

    /** How fast the memory the act is about grows in a rush, bytes per second, NaN when unknown. */
    double memoryGrowth(RushMeasurement measured);

    /** The closing table: what this act's lesson measured in the rush against what it predicted. */
    List<ClosingLine> closingLines(RushMeasurement measured, @Nullable Death death);
}
