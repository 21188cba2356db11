package dev.lunchrush.loadgenerator;

import java.io.PrintWriter;
import java.net.URI;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

import dev.lunchrush.loadgenerator.act.ActCommand;
import dev.lunchrush.loadgenerator.backfill.BackfillCommand;
import dev.lunchrush.loadgenerator.bench.BenchCommand;
import dev.lunchrush.loadgenerator.chaos.ChaosCommand;
import dev.lunchrush.loadgenerator.launcher.DownCommand;
import dev.lunchrush.loadgenerator.launcher.StatusCommand;
import dev.lunchrush.loadgenerator.launcher.UpCommand;
import dev.lunchrush.loadgenerator.replay.ReplayCommand;
import dev.lunchrush.loadgenerator.rush.RushCommand;

/**
 * {@code ./demo}: the command-line entry point of Lunch Rush.
 *
 * <p>Exit codes: 0 done, 1 the command ran but failed (a service down, a refused request), 2 bad input
 * (picocli's usage errors and {@link DemoException#badInput}).
 */
@Command(name = "demo", mixinStandardHelpOptions = true, version = "Lunch Rush demo 1.0",
        description = "Lunch Rush: logs, queues and back-pressure on real RabbitMQ and real Kafka.",
        subcommands = {UpCommand.class, DownCommand.class, StatusCommand.class, ActCommand.class,
            RushCommand.class, BackfillCommand.class, ReplayCommand.class, ChaosCommand.class, BenchCommand.class})
public class Demo implements Runnable {

    public static final int EXIT_FAILED = 1;
    public static final int EXIT_BAD_INPUT = 2;

    @Spec
    private CommandSpec spec;

    // Inherited, so that "./demo rush --order-service URL" and "./demo --order-service URL rush" both work.
    @Option(names = "--order-service", scope = ScopeType.INHERIT, paramLabel = "URL",
            defaultValue = "${env:LUNCHRUSH_ORDER_SERVICE_URL:-http://localhost:8080}",
            description = "order service base URL (default: ${DEFAULT-VALUE})")
    private URI orderService = URI.create("http://localhost:8080");

    @Option(names = "--kitchen-screen", scope = ScopeType.INHERIT, paramLabel = "URL",
            defaultValue = "${env:LUNCHRUSH_KITCHEN_SCREEN_URL:-http://localhost:8081}",
            description = "kitchen screen base URL (default: ${DEFAULT-VALUE})")
    private URI kitchenScreen = URI.create("http://localhost:8081");

    @Option(names = "--analytics-dashboard", scope = ScopeType.INHERIT, paramLabel = "URL",
            defaultValue = "${env:LUNCHRUSH_ANALYTICS_DASHBOARD_URL:-http://localhost:8082}",
            description = "analytics dashboard base URL (default: ${DEFAULT-VALUE})")
    private URI analyticsDashboard = URI.create("http://localhost:8082");

    @Option(names = "--report-replayer", scope = ScopeType.INHERIT, paramLabel = "URL",
            defaultValue = "${env:LUNCHRUSH_REPORT_REPLAYER_URL:-http://localhost:8083}",
            description = "report replayer base URL (default: ${DEFAULT-VALUE})")
    private URI reportReplayer = URI.create("http://localhost:8083");

    @Option(names = "--backlog-monitor", scope = ScopeType.INHERIT, paramLabel = "URL",
            defaultValue = "${env:LUNCHRUSH_BACKLOG_MONITOR_URL:-http://localhost:8084}",
            description = "backlog monitor base URL (default: ${DEFAULT-VALUE})")
    private URI backlogMonitor = URI.create("http://localhost:8084");

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line with its error handling, as {@code main} runs it; tests use it too. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new Demo());
        // bad input: the message and where to read more, not the whole usage text
        commandLine.setParameterExceptionHandler((ex, args) -> {
            CommandLine cmd = ex.getCommandLine();
            PrintWriter err = cmd.getErr();
            err.println(ex.getMessage());
            err.println("See './" + cmd.getCommandSpec().qualifiedName(" ") + " --help'.");
            err.flush();
            return EXIT_BAD_INPUT;
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
            return EXIT_FAILED;
        });
        return commandLine;
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(),
                "Missing command: one of up, down, status, act, rush, backfill, replay, chaos, bench (./demo --help)");
    }

    public Endpoints endpoints() {
        return new Endpoints(orderService, kitchenScreen, analyticsDashboard, reportReplayer, backlogMonitor);
    }
}
