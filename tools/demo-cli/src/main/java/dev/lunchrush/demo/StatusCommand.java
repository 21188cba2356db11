package dev.lunchrush.demo;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import dev.lunchrush.localstack.Launcher;
import dev.lunchrush.localstack.LocalStack;
import dev.lunchrush.localstack.access.ExitCodes;
import dev.lunchrush.processes.RepoRoot;

/** {@code ./demo status}. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show every piece of the local stack: pid, URL, state (dead ones included). "
                + "Exit code 0 when everything is up, 3 when something is not.")
public class StatusCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        return new Launcher(LocalStack.asStarted(RepoRoot.find()), spec.commandLine().getOut()).status()
                ? ExitCodes.DONE : ExitCodes.NOT_ALL_UP;
    }
}
