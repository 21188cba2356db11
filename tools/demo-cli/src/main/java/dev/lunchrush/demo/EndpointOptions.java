package dev.lunchrush.demo;

import java.net.URI;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import dev.lunchrush.localstack.StackManifest;
import dev.lunchrush.localstack.access.Endpoints;

/**
 * Where the services answer: the options every command shares, mixed into {@link Demo} and inherited by its
 * commands, so that {@code ./demo rush --order-service URL} and {@code ./demo --order-service URL rush} both work.
 * A command reads them with {@link #of(CommandSpec)}, without knowing which command is its parent. Each option is
 * named after a service of the {@link StackManifest}; its default ({@link Defaults}) is {@code LUNCHRUSH_<SERVICE>_URL}
 * when set, else the manifest's port on localhost.
 */
public class EndpointOptions {

    /** The name under which {@link Demo} mixes these options in. */
    static final String MIXIN = "endpoints";

    @Option(names = "--order-service", scope = ScopeType.INHERIT, paramLabel = "URL",
            description = "order service base URL (default: ${DEFAULT-VALUE})")
    private URI orderService;

    @Option(names = "--kitchen-screen", scope = ScopeType.INHERIT, paramLabel = "URL",
            description = "kitchen screen base URL (default: ${DEFAULT-VALUE})")
    private URI kitchenScreen;

    @Option(names = "--analytics-dashboard", scope = ScopeType.INHERIT, paramLabel = "URL",
            description = "analytics dashboard base URL (default: ${DEFAULT-VALUE})")
    private URI analyticsDashboard;

    @Option(names = "--report-replayer", scope = ScopeType.INHERIT, paramLabel = "URL",
            description = "report replayer base URL (default: ${DEFAULT-VALUE})")
    private URI reportReplayer;

    @Option(names = "--backlog-monitor", scope = ScopeType.INHERIT, paramLabel = "URL",
            description = "backlog monitor base URL (default: ${DEFAULT-VALUE})")
    private URI backlogMonitor;

    /** The services' URLs when no option gives them: the environment's, else the stack manifest's. */
    static final class Defaults implements IDefaultValueProvider {

        @Override
        public @Nullable String defaultValue(ArgSpec argument) {
            if (!(argument instanceof OptionSpec option) || !option.longestName().startsWith("--")) {
                return null;
            }
            String name = option.longestName().substring(2);
            if (StackManifest.get().services().stream().noneMatch(service -> service.name().equals(name))) {
                return null;
            }
            String variable = System.getenv("LUNCHRUSH_" + name.toUpperCase(Locale.ROOT).replace('-', '_') + "_URL");
            return variable != null && !variable.isBlank() ? variable : StackManifest.get().service(name).localUrl().toString();
        }
    }

    public Endpoints endpoints() {
        return new Endpoints(orderService, kitchenScreen, analyticsDashboard, reportReplayer, backlogMonitor);
    }

    /** The endpoints as given on the command line of which {@code command} is a part. */
    public static Endpoints of(CommandSpec command) {
        CommandSpec mixin = command.root().mixins().get(MIXIN);
        if (mixin == null) {
            throw new IllegalStateException("the root command '" + command.root().name() + "' has no endpoint options");
        }
        return ((EndpointOptions) mixin.userObject()).endpoints();
    }
}
