package dev.lunchrush.orderservice.intake;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Autowired;

import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.OrderServiceTests;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /orders} with a few thousand random and mutated bodies: bytes flipped, cut, doubled or
 * inserted; values swapped for other JSON values; random bytes. No answer is a 5xx, every refusal is
 * problem+json, and an order is written for a 201 and for nothing else: the shared queue holds exactly
 * as many orders as there were 201s, and the intake's count moves only on a 201.
 */
class IntakeFuzzTests extends OrderServiceTests {

    private static final Logger log = LoggerFactory.getLogger(IntakeFuzzTests.class);

    private static final int CASES = 3000;
    private static final long SEED = 20261129L;
    private static final String[] VALUES = {"null", "true", "0", "-1", "1e309", "\"\"", "\"k1\"", "[]", "{}", "[{}]",
        "\"\\u0000\"", "\"\\ud800\"", "9223372036854775808", "1.5", "\"" + "x".repeat(5000) + "\"", "[null]", "{\"a\":1}"};

    @Autowired
    OrderIntake intake;

    @BeforeEach
    void actOneWithEmptyQueues() {
        act("{\"act\":\"shared-queue\"}");
        purgeOrderQueues();
    }

    @Test
    void noMutatedBodyGetsA5xxOrWritesAnOrderWithoutA201() {
        SplittableRandom random = new SplittableRandom(SEED);
        byte[] valid = validOrder().getBytes(StandardCharsets.UTF_8);
        int created = 0;
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < CASES; i++) {
            byte[] body = i % 10 == 0 ? randomBytes(random) : mutate(valid, random);
            long placedBefore = intake.placedTotal();

            HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/orders"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)));

            String shown = new String(body, StandardCharsets.UTF_8);
            String what = "case " + i + " (seed " + SEED + "): " + (shown.length() > 300 ? shown.substring(0, 300) + "…" : shown);
            int status = response.statusCode();
            statuses.add(status);
            assertThat(status).as(what).isLessThan(500);
            if (status == 201) {
                created++;
                assertThat(intake.placedTotal()).as(what).isEqualTo(placedBefore + 1);
            }
            else {
                assertThat(status).as(what).isBetween(400, 499);
                assertThat(response.headers().firstValue("Content-Type")).as(what)
                        .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
                assertThat(intake.placedTotal()).as(what).isEqualTo(placedBefore);
            }
        }
        log.info("{} fuzzed bodies: {} created, answers by status {}", CASES, created,
                statuses.stream().collect(java.util.stream.Collectors.groupingBy(s -> s, java.util.TreeMap::new,
                        java.util.stream.Collectors.counting())));
        assertThat(queueDepth(Topology.SHARED_QUEUE)).as("orders on the queue, against %d 201s", created).isEqualTo(created);
        // the mutations mostly break the order; some leave it valid, and those are written as any order
        assertThat(CASES - created).as("refused").isGreaterThan(CASES / 2);
    }

    private static byte[] randomBytes(SplittableRandom random) {
        byte[] bytes = new byte[random.nextInt(1, 400)];
        random.nextBytes(bytes);
        if (random.nextBoolean()) {
            bytes[0] = '{';
        }
        return bytes;
    }

    /** One to three mutations of the valid order's bytes or of one of its values. */
    private static byte[] mutate(byte[] valid, SplittableRandom random) {
        String text = new String(valid, StandardCharsets.UTF_8);
        int mutations = random.nextInt(1, 4);
        for (int m = 0; m < mutations; m++) {
            int at = text.isEmpty() ? 0 : random.nextInt(text.length());
            text = switch (random.nextInt(7)) {
                case 0 -> text.substring(0, at) + text.substring(Math.min(text.length(), at + random.nextInt(1, 8)));
                case 1 -> text.substring(0, at) + (char) random.nextInt(0x20, 0x7f) + text.substring(at);
                case 2 -> text.substring(0, at) + "\"" + text.substring(at);
                case 3 -> text.substring(0, at);
                case 4 -> text.substring(0, at) + text.substring(at, Math.min(text.length(), at + 30)) + text.substring(at);
                case 5 -> replaceValue(text, random);
                default -> text.substring(0, at) + (char) random.nextInt(0x80, 0x3000) + text.substring(at);
            };
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The value after a random {@code ":"} replaced by another JSON value (up to the next , ] or }). */
    private static String replaceValue(String text, SplittableRandom random) {
        List<Integer> colons = new ArrayList<>();
        for (int i = text.indexOf("\":"); i >= 0; i = text.indexOf("\":", i + 1)) {
            colons.add(i + 2);
        }
        if (colons.isEmpty()) {
            return text;
        }
        int start = colons.get(random.nextInt(colons.size()));
        int end = start;
        int depth = 0;
        boolean inString = false;
        while (end < text.length()) {
            char c = text.charAt(end);
            if (c == '"' && (end == 0 || text.charAt(end - 1) != '\\')) {
                inString = !inString;
            }
            else if (!inString && (c == '[' || c == '{')) {
                depth++;
            }
            else if (!inString && (c == ']' || c == '}')) {
                if (depth == 0) {
                    break;
                }
                depth--;
            }
            else if (!inString && depth == 0 && c == ',') {
                break;
            }
            end++;
        }
        return text.substring(0, start) + VALUES[random.nextInt(VALUES.length)] + text.substring(end);
    }
}
