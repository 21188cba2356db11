package dev.lunchrush.demo;

import java.util.concurrent.Callable;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import dev.lunchrush.localstack.access.ExitCodes;

/**
 * {@code ./demo completion}: picocli's completion script for bash and zsh, made from the command tree itself, so
 * that a new command or option completes without anybody editing a script. Load it with
 * {@code source <(./demo completion)}.
 */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Print a bash/zsh completion script for ./demo.",
            "Load it in the current shell: source <(./demo completion)"})
public class CompletionCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        // the root command, not this one: the script completes every command and option of ./demo
        String script = AutoComplete.bash("demo", spec.root().commandLine());
        spec.commandLine().getOut().print(script);
        // picocli registers the bare name; the repository's entry point is typed ./demo
        spec.commandLine().getOut().println("complete -F _complete_demo -o default ./demo");
        spec.commandLine().getOut().flush();
        return ExitCodes.DONE;
    }
}
