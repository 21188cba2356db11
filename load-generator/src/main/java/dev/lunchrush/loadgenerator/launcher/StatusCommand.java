package dev.lunchrush.loadgenerator.launcher;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import dev.lunchrush.loadgenerator.RepoRoot;

/** {@code ./demo status}. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show every piece of the local stack: pid, URL, state (dead ones included). "
                + "Exit code 0 when everything is up, 3 when something is not.")
public class StatusCommand implements Callable<Integer> {

    static final int EXIT_NOT_ALL_UP = 3;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        return new Launcher(LocalStack.asStarted(RepoRoot.find()), spec.commandLine().getOut()).status() ? 0 : EXIT_NOT_ALL_UP;
    }
}
