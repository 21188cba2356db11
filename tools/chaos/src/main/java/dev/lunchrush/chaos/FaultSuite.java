package dev.lunchrush.chaos;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.load.menu.Menu;
import dev.lunchrush.localstack.StackControl;
import dev.lunchrush.localstack.access.AdminPassword;
import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.Endpoints;
import dev.lunchrush.localstack.access.OrderServiceClient;
import dev.lunchrush.localstack.access.ServiceClient;

/**
 * {@code ./demo chaos}: the chosen scenarios one after the other against the stack of {@code ./demo up}, then the
 * table, the stack put back in the act it was in, and the table as JSON when asked for.
 */
public final class FaultSuite {

    /**
     * What to run.
     *
     * @param scenarios the scenarios, in the order they run
     * @param perSecond orders per second while the faults happen
     * @param before how long orders stream before each fault
     * @param after the orders acknowledged after each fault, at the rate, before the stream stops
     * @param seed the seed of the orders (and of the backfill)
     * @param json where the table goes as JSON; null for nowhere
     */
    public record Settings(List<Scenario> scenarios, double perSecond, Duration before, Duration after, long seed,
            @Nullable Path json) {
    }

    private static final URI RABBITMQ_MANAGEMENT = URI.create("http://127.0.0.1:15672");

    private final Settings settings;
    private final Path root;
    private final Endpoints endpoints;
    private final PrintWriter out;

    public FaultSuite(Settings settings, Path root, Endpoints endpoints, PrintWriter out) {
        this.settings = settings;
        this.root = root;
        this.endpoints = endpoints;
        this.out = out;
    }

    /** Runs the suite; whether every scenario passed. */
    public boolean run() {
        StackControl stack = StackControl.asStarted(root);
        OrderServiceClient orderService = new OrderServiceClient(endpoints.orderService(), () -> AdminPassword.require(root));
        String rabbitUser = System.getenv().getOrDefault("SPRING_RABBITMQ_USERNAME", "guest");
        String rabbitPassword = System.getenv().getOrDefault("SPRING_RABBITMQ_PASSWORD", "guest");
        Readers readers = new Readers(endpoints, RABBITMQ_MANAGEMENT, rabbitUser, rabbitPassword);
        String previousAct = orderService.act().act();

        out.println("chaos: " + settings.scenarios().size() + " scenarios at " + (long) settings.perSecond()
                + " orders/s against " + (stack.cluster() ? "three Kafka brokers (" + stack.bootstrapServers() + ")"
                        : "one Kafka broker (" + stack.bootstrapServers() + ")") + "; the oracle is the log, read back");
        out.flush();
        ServiceClient replayer = new ServiceClient("report-replayer", endpoints.reportReplayer(),
                () -> AdminPassword.require(root));
        ScenarioConsole console = new ScenarioConsole(out);
        Menu menu = ServiceClient.JSON.treeToValue(orderService.http().get("/menu"), Menu.class);
        ScenarioRunner runner = new ScenarioRunner(stack, endpoints, orderService, replayer, readers, menu, settings,
                new Faults(stack, orderService, rabbitUser, rabbitPassword, console), console);
        List<Result> results = new ArrayList<>();
        for (Scenario scenario : settings.scenarios()) {
            results.add(runner.run(scenario));
        }
        out.println();
        ChaosTable.print(results, out);
        try {
            orderService.switchAct(previousAct);
            out.println("act is " + previousAct + " again, as before the suite");
        }
        catch (DemoException ex) {
            out.println("could not put the stack back in act " + previousAct + ": " + ex.getMessage());
        }
        if (settings.json() != null) {
            ChaosJson.write(settings.json(), settings.perSecond(), stack.cluster(), results);
            out.println("JSON written to " + settings.json());
        }
        out.flush();
        return results.stream().allMatch(Result::passed);
    }
}
