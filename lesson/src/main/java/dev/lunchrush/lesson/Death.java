package dev.lunchrush.lesson;

/**
 * When the order service stopped answering for good, and what went with it.
 *
 * @param lastSeenBuffered what its feed held at its last answer, -1 when unknown
 */
public record Death(double atSeconds, String clock, long acceptedIntoFeed, long deliveredToJob, long lastSeenBuffered) {

    public long eventsLost() {
        return Math.max(0, acceptedIntoFeed - deliveredToJob);
    }

    /** The same death, with what the feed held before the rush counted among what died. */
    public Death withHeldBefore(long bufferedAtStart) {
        return new Death(atSeconds, clock, acceptedIntoFeed + bufferedAtStart, deliveredToJob, lastSeenBuffered);
    }
}
