package dev.lunchrush.load.backfill;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.lunchrush.load.menu.Menu;

import static org.assertj.core.api.Assertions.assertThat;

/** What a backfill sends follows from its parameters alone: the batches' keys and bodies. */
class BackfillRunTests {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    private static final LocalDate DAY = LocalDate.of(2026, 11, 26);
    private static final Menu MENU = new Menu(List.of(
            new Menu.Kitchen("k1", "Noodle Bar", List.of("pad-thai", "ramen", "gyoza")),
            new Menu.Kitchen("k2", "Pizza", List.of("margherita", "calzone"))));

    private static final BackfillRun RUN = BackfillRun.of(42, PARIS, 20_000, 1000);

    @Test
    void theSameParametersGiveTheSameKeys() {
        BackfillRun same = BackfillRun.of(42, ZoneId.of("Europe/Paris"), 20_000, 1000);

        assertThat(same.idempotencyKey(DAY, 7)).isEqualTo(RUN.idempotencyKey(DAY, 7))
                .matches("[0-9a-f]{8}-[0-9a-f]{4}-3[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    }

    @Test
    void everyBatchOfEveryDayHasAKeyOfItsOwn() {
        Set<String> keys = new HashSet<>();
        for (int day = 0; day < 13; day++) {
            for (int index = 0; index < 20; index++) {
                keys.add(RUN.idempotencyKey(DAY.minusDays(day), index));
            }
        }
        assertThat(keys).hasSize(13 * 20);
        assertThat(RUN.idempotencyKey(DAY, 0)).isNotEqualTo(RUN.idempotencyKey(DAY, 1));
    }

    @Test
    void eachParameterIsInTheKey() {
        String key = RUN.idempotencyKey(DAY, 3);

        assertThat(List.of(BackfillRun.of(43, PARIS, 20_000, 1000), BackfillRun.of(42, ZoneId.of("UTC"), 20_000, 1000),
                BackfillRun.of(42, PARIS, 20_001, 1000), BackfillRun.of(42, PARIS, 20_000, 999)))
                .allSatisfy(other -> assertThat(other.idempotencyKey(DAY, 3)).isNotEqualTo(key));
        assertThat(RUN.idempotencyKey(DAY.plusDays(1), 3)).isNotEqualTo(key);
    }

    @Test
    void againSaltsEveryKeyAndEachSaltDiffers() {
        BackfillRun again = RUN.salted("3f1c2a9e-5b7d-4e0f-9a1b-2c3d4e5f6a7b");
        BackfillRun againOnceMore = RUN.salted("5b7d4e0f-1c2a-4e0f-9a1b-2c3d4e5f6a7b");

        for (int index = 0; index < 20; index++) {
            assertThat(again.idempotencyKey(DAY, index)).isNotEqualTo(RUN.idempotencyKey(DAY, index))
                    .isNotEqualTo(againOnceMore.idempotencyKey(DAY, index))
                    .isEqualTo(RUN.salted("3f1c2a9e-5b7d-4e0f-9a1b-2c3d4e5f6a7b").idempotencyKey(DAY, index));
        }
    }

    @Test
    void aDaysBatchesAreTheSameForTheSameSeedAndDayAndOnlyThen() {
        List<DayBatches.Batch> first = all(new DayBatches(MENU, BackfillRun.of(42, PARIS, 2500, 1000), DAY));
        List<DayBatches.Batch> second = all(new DayBatches(MENU, BackfillRun.of(42, PARIS, 2500, 1000), DAY));

        assertThat(first).hasSize(3);
        assertThat(first).extracting(batch -> batch.orders().size()).containsExactly(1000, 1000, 500);
        assertThat(second).isEqualTo(first);
        // salted keys, the same orders
        List<DayBatches.Batch> again = all(new DayBatches(MENU, BackfillRun.of(42, PARIS, 2500, 1000).salted("x"), DAY));
        assertThat(again).extracting(DayBatches.Batch::orders).isEqualTo(first.stream().map(DayBatches.Batch::orders).toList());
        assertThat(again).extracting(DayBatches.Batch::idempotencyKey)
                .doesNotContainAnyElementsOf(first.stream().map(DayBatches.Batch::idempotencyKey).toList());
        // another seed or another day: other orders
        assertThat(all(new DayBatches(MENU, BackfillRun.of(43, PARIS, 2500, 1000), DAY)).get(0).orders())
                .isNotEqualTo(first.get(0).orders());
        assertThat(all(new DayBatches(MENU, BackfillRun.of(42, PARIS, 2500, 1000), DAY.minusDays(1))).get(0).orders())
                .isNotEqualTo(first.get(0).orders());
    }

    private static List<DayBatches.Batch> all(DayBatches batches) {
        List<DayBatches.Batch> all = new ArrayList<>();
        batches.forEachRemaining(all::add);
        return all;
    }
}
