package dev.lunchrush.demo;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ./demo completion}: the script, loaded into a real bash, completes the commands and their options. */
class CompletionCommandTests {

    @TempDir
    Path folder;

    private String script() {
        StringWriter out = new StringWriter();
        CommandLine commandLine = Demo.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        assertThat(commandLine.execute("completion")).isZero();
        return out.toString();
    }

    /** What bash offers for {@code words} (the last one being completed), with the script sourced as the README says. */
    private List<String> complete(String... words) throws IOException, InterruptedException {
        Path script = Files.writeString(folder.resolve("demo-completion.bash"), script());
        String line = String.join(" ", words);
        String probe = "source \"$1\"\n"
                + "complete -p ./demo >/dev/null || exit 3\n"
                + "COMP_WORDS=(" + line + "); COMP_CWORD=" + (words.length - 1) + "\n"
                + "COMP_LINE='" + line + "'; COMP_POINT=${#COMP_LINE}\n"
                + "_complete_demo 2>/dev/null\n"
                + "printf '%s\\n' \"${COMPREPLY[@]}\"\n";
        Process bash = new ProcessBuilder("bash", "-c", probe, "bash", script.toString())
                .redirectErrorStream(true).start();
        assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String output = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(bash.exitValue()).as(output).isZero();
        return output.lines().map(String::strip).filter(word -> !word.isEmpty()).toList();
    }

    @Test
    void completesTheCommands() throws Exception {
        assertThat(complete("./demo", "")).contains("up", "down", "status", "act", "rush", "backfill", "replay",
                "chaos", "bench", "completion");
        assertThat(complete("./demo", "re")).containsExactlyInAnyOrder("replay");
    }

    @Test
    void completesACommandsOptions() throws Exception {
        assertThat(complete("./demo", "act", "--st")).containsExactly("--strategy");
        assertThat(complete("./demo", "rush", "--sp")).containsExactly("--speed");
    }

    @Test
    void loadsInZshToo() {
        // zsh has no "complete": the script turns on zsh's bash compatibility before it registers
        assertThat(script()).contains("bashcompinit").contains("complete -F _complete_demo -o default ./demo");
    }
}
