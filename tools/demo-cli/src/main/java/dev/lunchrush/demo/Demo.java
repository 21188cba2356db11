package dev.lunchrush.demo;

import java.io.PrintWriter;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.ExitCodes;


/**
 * {@code ./demo}: the command-line entry point of Lunch Rush.
 *
 * <p>Exit codes: 0 done, 1 the command ran but failed (a service down, a refused request), 2 bad input
 * (picocli's usage errors and {@link DemoException#badInput}); all in {@link ExitCodes}.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, version = "Lunch Rush demo 1.0",
        description = "Lunch Rush: logs, queues and back-pressure on real RabbitMQ and real Kafka.",
        subcommands = {UpCommand.class, DownCommand.class, StatusCommand.class, ActCommand.class,
            RushCommand.class, BackfillCommand.class, ReplayCommand.class, ChaosCommand.class, BenchCommand.class,
            CompletionCommand.class})
public class Demo implements Runnable {

    @Spec
    private CommandSpec spec;

    @Mixin(name = EndpointOptions.MIXIN)
    private EndpointOptions endpoints = new EndpointOptions();

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line with its error handling, as {@code main} runs it; tests use it too. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new Demo());
        commandLine.setDefaultValueProvider(new EndpointOptions.Defaults());
        // bad input: the message and where to read more, not the whole usage text
        commandLine.setParameterExceptionHandler((ex, args) -> {
            CommandLine cmd = ex.getCommandLine();
            PrintWriter err = cmd.getErr();
            err.println(ex.getMessage());
            err.println("See './" + cmd.getCommandSpec().qualifiedName(" ") + " --help'.");
            err.flush();
            return ExitCodes.BAD_INPUT;
        });
        commandLine.setExecutionExceptionHandler((ex, cmd, parseResult) -> {
            PrintWriter err = cmd.getErr();
            if (ex instanceof DemoException demoException) {
                err.println(demoException.getMessage());
                err.flush();
                return demoException.exitCode();
            }
            // Unexpected: say what it was, plainly, without burying the user in a stack trace.
            err.println("demo " + cmd.getCommandName() + " failed: " + ex);
            if (System.getenv("LUNCHRUSH_DEBUG") != null) {
                ex.printStackTrace(err);
            }
            else {
                err.println("(set LUNCHRUSH_DEBUG=1 for the stack trace)");
            }
            err.flush();
            return ExitCodes.FAILED;
        });
        return commandLine;
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(),
                "Missing command: one of up, down, status, act, rush, backfill, replay, chaos, bench, completion (./demo --help)");
    }

}
