package dev.lunchrush.lesson;

import org.junit.jupiter.api.Test;

import dev.lunchrush.events.Act;

import static org.assertj.core.api.Assertions.assertThat;

class LessonsTests {

    @Test
    void everyActHasALessonFoundByItsId() {
        for (Act act : Act.values()) {
            assertThat(Lessons.forId(act.id())).containsSame(Lessons.of(act));
        }
    }

    @Test
    void anUnknownActHasNoLessonAndIsClosedAsTheSlowReaderInTheLog() {
        assertThat(Lessons.forId("")).isEmpty();
        assertThat(Lessons.forId("carrier-pigeon")).isEmpty();
        assertThat(Lessons.forIdOrLog("")).isSameAs(Lessons.of(Act.LOG));
    }

    @Test
    void onlyTheSharedQueuesReadersShareTheOrders() {
        assertThat(Lessons.of(Act.SHARED_QUEUE).readersCompete()).isTrue();
        assertThat(Lessons.of(Act.SHARED_QUEUE).everyOrderArrived(100, 52, 48)).isTrue();
        for (Act act : new Act[] {Act.QUEUE_PER_READER, Act.MEMORY_FEED, Act.LOG}) {
            assertThat(Lessons.of(act).readersCompete()).isFalse();
            assertThat(Lessons.of(act).everyOrderArrived(100, 52, 48)).isFalse();
            assertThat(Lessons.of(act).everyOrderArrived(100, 100, 100)).isTrue();
        }
    }

    @Test
    void onlyTheMemoryFeedKeepsItsBacklogInTheOrderService() {
        Snapshot.OrderServiceStats stats = new Snapshot.OrderServiceStats("memory-feed", "unbounded", "run", 10, 7, 7000,
                3, 0, 0, 0, 0, 0, 0);
        assertThat(Lessons.of(Act.MEMORY_FEED).keepsAFeed()).isTrue();
        assertThat(Lessons.of(Act.MEMORY_FEED).dashboardBacklog(stats, reader -> 99)).isEqualTo(7);
        assertThat(Lessons.of(Act.MEMORY_FEED).dashboardBacklog(null, reader -> 99)).isEqualTo(-1);
        assertThat(Lessons.of(Act.LOG).keepsAFeed()).isFalse();
        assertThat(Lessons.of(Act.LOG).dashboardBacklog(stats, reader -> reader.equals("kafka:analytics-dashboard") ? 5 : -1))
                .isEqualTo(5);
    }

    @Test
    void eachActNamesWhereTheKitchensUnreadEventsAre() {
        assertThat(Lessons.of(Act.SHARED_QUEUE).kitchenReader()).startsWith("rabbitmq:");
        assertThat(Lessons.of(Act.QUEUE_PER_READER).kitchenReader()).startsWith("rabbitmq:");
        assertThat(Lessons.of(Act.MEMORY_FEED).kitchenReader()).startsWith("rabbitmq:");
        assertThat(Lessons.of(Act.LOG).kitchenReader()).startsWith("kafka:");
    }
}
