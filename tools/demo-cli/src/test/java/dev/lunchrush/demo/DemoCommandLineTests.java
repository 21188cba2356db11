package dev.lunchrush.demo;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad input gets a plain message and exit code 2, before anything is sent anywhere. */
class DemoCommandLineTests {

    /** A port where nothing listens: any request would fail with exit 1, not 2. */
    private static final String NOWHERE = "http://127.0.0.1:9";

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = Demo.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    @Test
    void noCommandIsAUsageError() {
        assertThat(run()).isEqualTo(2);
        assertThat(err.toString()).contains("Missing command");
    }

    @Test
    void unknownCommand() {
        assertThat(run("dance")).isEqualTo(2);
        assertThat(err.toString()).contains("Unmatched argument").contains("dance");
    }

    @Test
    void unknownActNamesTheActs() {
        assertThat(run("act", "kafka-forever", "--order-service", NOWHERE)).isEqualTo(2);
        assertThat(err.toString()).contains("unknown act 'kafka-forever'")
                .contains("shared-queue, queue-per-reader, memory-feed, log");
    }

    @Test
    void unknownStrategy() {
        assertThat(run("act", "memory-feed", "--strategy", "pray", "--order-service", NOWHERE)).isEqualTo(2);
        assertThat(err.toString()).contains("unknown strategy 'pray'");
    }

    @Test
    void strategyBelongsToTheMemoryFeedOnly() {
        assertThat(run("act", "log", "--strategy", "drop", "--order-service", NOWHERE)).isEqualTo(2);
        assertThat(err.toString()).contains("memory-feed only");
    }

    @Test
    void capacityMustBeAPositiveNumber() {
        assertThat(run("act", "memory-feed", "--capacity", "lots", "--order-service", NOWHERE)).isEqualTo(2);
        assertThat(run("act", "memory-feed", "--capacity", "-5", "--order-service", NOWHERE)).isEqualTo(2);
        assertThat(err.toString()).contains("--capacity must be positive");
    }

    @Test
    void aServiceThatDoesNotAnswerIsAFailureNotAUsageError() {
        assertThat(run("act", "log", "--order-service", NOWHERE)).isEqualTo(1);
        assertThat(err.toString()).contains("order-service at " + NOWHERE + " does not answer")
                .doesNotContain("Exception");
    }

    @Test
    void rushFlagsAreChecked() {
        assertThat(run("rush", "--rate", "100", "--order-service", NOWHERE)).isEqualTo(2);
        assertThat(err.toString()).contains("needs --duration");
        assertThat(run("rush", "--profile", "lunch", "--rate", "100", "--order-service", NOWHERE)).isEqualTo(2);
        assertThat(run("rush", "--profile", "custom", "--rate", "100", "--duration", "1s", "--order-service", NOWHERE))
                .isEqualTo(2);
        assertThat(run("rush", "--profile", "brunch", "--order-service", NOWHERE)).isEqualTo(2);
        assertThat(run("rush", "--speed", "0", "--order-service", NOWHERE)).isEqualTo(2);
        assertThat(run("rush", "--rate", "100", "--duration", "soon", "--order-service", NOWHERE)).isEqualTo(2);
        assertThat(err.toString()).contains("'soon' is not a duration");
    }

    /** Each numeric and duration flag of the rush beyond its bounds: exit 2 and a plain sentence, nothing sent. */
    @Test
    void rushFlagsHaveBounds() {
        String[][] cases = {
            {"--speed 101", "--speed must be between 0.1 and 100, not 101"},
            {"--speed 0.01", "--speed must be between 0.1 and 100, not 0.01"},
            {"--rate 20001 --duration 1s", "--rate must be between 0.1 and 20,000 orders/s, not 20,001"},
            {"--rate Infinity --duration 1s", "--rate must be between 0.1 and 20,000 orders/s, not Infinity"},
            {"--rate 10 --duration 3000000h", "--duration must be between 1s and 24h, not 3000000h"},
            {"--rate 10 --duration 500ms", "--duration must be between 1s and 24h, not 500ms"},
            {"--rate 10 --duration 1s --then-rate 50000 --then-duration 1s", "--then-rate must be between 0.1 and 20,000"},
            {"--rate 10 --duration 1s --then-rate 5 --then-duration 25h", "--then-duration must be between 1s and 24h"},
            {"--rate 10 --duration 1s --count 100000001", "--count must be between 0 and 100,000,000 orders"},
            {"--rate 10 --duration 1s --dashboard-capacity 2000000", "--dashboard-capacity must be between 1 and 1,000,000"},
            {"--rate 10 --duration 1s --budget-mb 0.5", "--budget-mb must be between 1 and 100,000 MB"},
            {"--rate 10 --duration 1s --max-in-flight 200000", "--max-in-flight must be between 1 and 100,000"},
            {"--rate 10 --duration 1s --request-timeout 10m", "--request-timeout must be between 100ms and 5m"},
            {"--rate 15000 --duration 10s --speed 2", "--speed: the rush would send 30,000 orders/s"},
            {"--rate 10 --duration 20h --then-rate 10 --then-duration 5h", "--then-duration: the rush would last 25h"},
        };
        for (String[] bad : cases) {
            out.getBuffer().setLength(0);
            err.getBuffer().setLength(0);
            String[] args = ("rush " + bad[0] + " --order-service " + NOWHERE).split(" ");
            assertThat(run(args)).as("demo %s: %s", String.join(" ", args), err).isEqualTo(2);
            assertThat(err.toString()).as(bad[0]).contains(bad[1]).doesNotContain("Exception");
        }
    }

    @Test
    void chaosFlagsAreCheckedBeforeAnythingIsTouched() {
        assertThat(run("chaos", "--scenario", "meteor-strike", "--order-service", NOWHERE)).isEqualTo(2);
        assertThat(err.toString()).contains("no scenario 'meteor-strike'").contains("kafka-kill, kafka-freeze");
        assertThat(run("chaos", "--rate", "0", "--order-service", NOWHERE)).isEqualTo(2);
        assertThat(err.toString()).contains("--rate must be above 0");
        assertThat(run("chaos", "--before", "20m", "--order-service", NOWHERE)).isEqualTo(2);
        assertThat(err.toString()).contains("--before and --after");
    }

    @Test
    void serviceUrlsMayComeBeforeOrAfterTheCommand() {
        CommandLine before = Demo.commandLine();
        before.parseArgs("--order-service", "http://orders:8080", "act");
        assertThat(EndpointOptions.of(before.getCommandSpec()).orderService()).isEqualTo(URI.create("http://orders:8080"));

        CommandLine after = Demo.commandLine();
        after.parseArgs("act", "--order-service", "http://orders:8080");
        assertThat(EndpointOptions.of(after.getCommandSpec()).orderService()).isEqualTo(URI.create("http://orders:8080"));
        assertThat(EndpointOptions.of(after.getCommandSpec()).kitchenScreen()).isEqualTo(URI.create("http://localhost:8081"));
    }

    @Test
    void durationsAsPeopleWriteThem() {
        assertThat(DurationConverter.parse("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(DurationConverter.parse("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(DurationConverter.parse("1m30s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(DurationConverter.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(DurationConverter.parse("45")).isEqualTo(Duration.ofSeconds(45));
    }
}
