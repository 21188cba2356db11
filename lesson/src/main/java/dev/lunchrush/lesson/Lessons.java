package dev.lunchrush.lesson;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

import dev.lunchrush.events.Act;

/**
 * The one place that picks an act's lesson: every {@link Act} has exactly one {@link ActLesson}. Elsewhere the act
 * is looked up here and asked, never compared or switched on (an architecture rule allows it only in this class).
 */
public final class Lessons {

    private static final Map<Act, ActLesson> LESSONS = new EnumMap<>(Act.class);

    static {
        LESSONS.put(Act.SHARED_QUEUE, new SharedQueueLesson());
        LESSONS.put(Act.QUEUE_PER_READER, new QueuePerReaderLesson());
        LESSONS.put(Act.MEMORY_FEED, new MemoryFeedLesson());
        LESSONS.put(Act.LOG, new LogLesson());
        for (Act act : Act.values()) {
            if (!LESSONS.containsKey(act)) {
                throw new IllegalStateException("act " + act.id() + " has no lesson");
            }
        }
    }

    private Lessons() {
    }

    public static ActLesson of(Act act) {
        return LESSONS.get(act);
    }

    /** The lesson of the act with this id ({@link Act#id()}); empty for none (""), or one this build does not know. */
    public static Optional<ActLesson> forId(String id) {
        for (Map.Entry<Act, ActLesson> entry : LESSONS.entrySet()) {
            if (entry.getKey().id().equals(id)) {
                return Optional.of(entry.getValue());
            }
        }
        return Optional.empty();
    }

    /**
     * The lesson of the act with this id, or the lesson's general case, the slow reader in the log, where the act is
     * not known (the order service has not answered yet): its closing table, and where its readers' unread events
     * are looked for.
     */
    public static ActLesson forIdOrLog(String id) {
        return forId(id).orElseGet(() -> LESSONS.get(Act.LOG));
    }
}
