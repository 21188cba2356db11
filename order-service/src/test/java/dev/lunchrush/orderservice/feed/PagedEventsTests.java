package dev.lunchrush.orderservice.feed;

import java.util.ArrayDeque;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PagedEventsTests {

    @Test
    void givesBackWhatWasAppendedInOrderAcrossPagesAndOddSizes() {
        PagedEvents events = new PagedEvents();
        ArrayDeque<byte[]> expected = new ArrayDeque<>();
        SplittableRandom random = new SplittableRandom(7);
        for (int round = 0; round < 20_000; round++) {
            if (random.nextInt(3) > 0) {
                // mostly ~1 KB, sometimes an event larger than a page
                int length = random.nextInt(200) == 0 ? PagedEvents.PAGE_BYTES + random.nextInt(5000) : random.nextInt(2000);
                byte[] event = new byte[length];
                random.nextBytes(event);
                events.append(event);
                expected.addLast(event);
            }
            else {
                byte[] event = events.pollFirst();
                byte[] want = expected.pollFirst();
                // byte for byte, not by hash codes, which differing events can share
                assertThat(event).isEqualTo(want);
            }
            assertThat(events.size()).isEqualTo(expected.size());
        }
        while (!expected.isEmpty()) {
            assertThat(events.pollFirst()).isEqualTo(expected.pollFirst());
        }
        assertThat(events.isEmpty()).isTrue();
        assertThat(events.pollFirst()).isNull();
    }
}
