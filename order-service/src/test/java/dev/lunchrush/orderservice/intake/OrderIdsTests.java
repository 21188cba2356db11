package dev.lunchrush.orderservice.intake;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OrderIdsTests {

    @Test
    void areDistinctVersionFourUuidsFromManyThreads() {
        Set<String> ids = ConcurrentHashMap.newKeySet();
        IntStream.range(0, 200_000).parallel().forEach(i -> ids.add(OrderIds.next()));

        assertThat(ids).hasSize(200_000);
        assertThat(ids).allSatisfy(id -> {
            UUID uuid = UUID.fromString(id);
            assertThat(uuid.version()).isEqualTo(4);
            assertThat(uuid.variant()).isEqualTo(2);
            assertThat(uuid.toString()).isEqualTo(id);
        });
    }
}
