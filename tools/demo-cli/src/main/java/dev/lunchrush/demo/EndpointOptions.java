package dev.lunchrush.demo;

import java.net.URI;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import dev.lunchrush.localstack.access.Endpoints;

/**
 * Where the services answer: the options every command shares, mixed into {@link Demo} and inherited by its
 * commands, so that {@code ./demo rush --order-service URL} and {@code ./demo --order-service URL rush} both work.
 * A command reads them with {@link #of(CommandSpec)}, without knowing which command is its parent.
 */
public class EndpointOptions {

    /** The name under which {@link Demo} mixes these options in. */
    static final String MIXIN = "endpoints";

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
