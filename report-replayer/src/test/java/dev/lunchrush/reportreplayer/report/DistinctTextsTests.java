package dev.lunchrush.reportreplayer.report;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DistinctTextsTests {

    @Test
    void countsLikeASetOfStringsForTextsOfEveryLengthAndAlphabet() {
        Random random = new Random(7);
        List<String> alphabets = List.of("0123456789", "c-", "abcXYZ", "éüß", "ÿ\u0000", "中文ж", "😀");
        DistinctTexts counted = new DistinctTexts();
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < 200_000; i++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(10);
            String alphabet = alphabets.get(random.nextInt(alphabets.size()));
            for (int c = 0; c < length; c++) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            counted.add(text.toString());
            expected.add(text.toString());
        }
        assertThat(counted.size()).isEqualTo(expected.size());
        assertThat(expected.size()).isGreaterThan(50_000);
    }

    @Test
    void textsThatDifferOnlyInLengthOrInATrailingZeroAreDifferent() {
        DistinctTexts counted = new DistinctTexts();
        for (String text : List.of("", "\u0000", "\u0000\u0000", "a", "a\u0000", "\u0000a", "abcdefg", "abcdefg\u0000",
                "abcdefgh")) {
            counted.add(text);
            counted.add(text);
        }
        assertThat(counted.size()).isEqualTo(9);
    }

    @Test
    void theSeedsCustomersArePackedAndOthersAreNot() {
        assertThat(DistinctTexts.pack("c-12345")).isNotZero();
        assertThat(DistinctTexts.pack("")).isNotZero();
        assertThat(DistinctTexts.pack("c-123456")).isZero();
        assertThat(DistinctTexts.pack("ж")).isZero();
    }

    @Test
    void addingAnotherCountTakesInOnlyWhatWasNotThereYet() {
        DistinctTexts first = new DistinctTexts();
        DistinctTexts second = new DistinctTexts();
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < 30_000; i++) {
            String shared = "c-" + i;
            String longer = "customer-" + i;
            (i % 2 == 0 ? first : second).add(shared);
            (i % 3 == 0 ? first : second).add(longer);
            if (i % 5 == 0) {
                first.add(shared);
                second.add(shared);
            }
            expected.add(shared);
            expected.add(longer);
        }
        first.addAll(second);
        assertThat(first.size()).isEqualTo(expected.size());
    }
}
