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
