package dev.lunchrush.demo;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.Act;
import dev.lunchrush.events.FeedStrategy;
import dev.lunchrush.localstack.access.AdminPassword;
import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.ExitCodes;
import dev.lunchrush.localstack.access.ServiceClient;
import dev.lunchrush.processes.RepoRoot;

/** {@code ./demo act [NAME]}: switch the running stack to an act, or show the current one. */
@Command(name = "act", mixinStandardHelpOptions = true,
        description = {"Switch the running stack to an act (PUT /admin/act on the order service) and print the new state.",
            "Without NAME: print the current act.",
            "Acts: shared-queue, queue-per-reader, memory-feed, log."})
public class ActCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", converter = ActConverter.class,
            description = "shared-queue, queue-per-reader, memory-feed or log")
    private @Nullable Act act;

    @Option(names = "--strategy", paramLabel = "S", converter = StrategyConverter.class,
            description = "memory-feed only: unbounded, block, drop or throttle (service default: unbounded)")
    private @Nullable FeedStrategy strategy;

    @Option(names = "--capacity", paramLabel = "N",
            description = "memory-feed only: events the bounded feed holds (service default: 10000)")
    private @Nullable Integer capacity;

    @Override
    public Integer call() {
        ServiceClient orderService = new ServiceClient("order-service", EndpointOptions.of(spec).orderService(),
                () -> AdminPassword.require(RepoRoot.find()));
        if (act == null) {
            if (strategy != null || capacity != null) {
                throw DemoException.badInput("--strategy and --capacity need an act: ./demo act memory-feed --strategy drop");
            }
            spec.commandLine().getOut().println("current act: " + describe(orderService.get("/api/act")));
            return ExitCodes.DONE;
        }
        if (!act.hasFeed() && (strategy != null || capacity != null)) {
            throw DemoException.badInput("--strategy and --capacity are for memory-feed only, not " + act.id());
        }
        if (capacity != null && capacity <= 0) {
            throw DemoException.badInput("--capacity must be positive, not " + capacity);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("act", act.id());
        if (strategy != null) {
            body.put("strategy", strategy.id());
        }
        if (capacity != null) {
            body.put("capacity", capacity);
        }
        JsonNode state = orderService.put("/admin/act", body, true);
        spec.commandLine().getOut().println("act is now: " + describe(state));
        return ExitCodes.DONE;
    }

    static String describe(JsonNode state) {
        String name = ServiceClient.text(state, "act");
        if (!Act.find(name).map(Act::hasFeed).orElse(false)) {
            return name;
        }
        return name + " (strategy " + ServiceClient.text(state, "strategy") + ", capacity "
                + ServiceClient.number(state, "capacity") + ")";
    }

    static final class ActConverter implements ITypeConverter<Act> {
        @Override
        public Act convert(String value) {
            try {
                return Act.fromId(value);
            }
            catch (IllegalArgumentException ex) {
                throw new TypeConversionException(ex.getMessage());
            }
        }
    }

    static final class StrategyConverter implements ITypeConverter<FeedStrategy> {
        @Override
        public FeedStrategy convert(String value) {
            try {
                return FeedStrategy.fromId(value);
            }
            catch (IllegalArgumentException ex) {
                throw new TypeConversionException(ex.getMessage());
            }
        }
    }
}
