package dev.lunchrush.demo;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import dev.lunchrush.localstack.Launcher;
import dev.lunchrush.localstack.LocalStack;
import dev.lunchrush.localstack.access.ExitCodes;
import dev.lunchrush.processes.RepoRoot;

/** {@code ./demo down}. */
@Command(name = "down", mixinStandardHelpOptions = true,
        description = "Stop what ./demo up started, by the pids in .run/ (SIGTERM, then SIGKILL after a grace period). "
                + "RabbitMQ is the machine's and stays up.")
public class DownCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        new Launcher(LocalStack.asStarted(RepoRoot.find()), spec.commandLine().getOut()).down();
        return ExitCodes.DONE;
    }
}
