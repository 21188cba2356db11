package dev.lunchrush.load.rush;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.lesson.Figures;
import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.ServiceClient;

/** The dashboard's capacity for the rush, and the old value to put back after it (also on Ctrl+C). */
final class CapacityOverride {

    private final ServiceClient dashboard;
    private final double previous;
    private boolean restored;

    private CapacityOverride(ServiceClient dashboard, double previous) {
        this.dashboard = dashboard;
        this.previous = previous;
    }

    /** Sets the capacity; null when it could not, or when there is no old value to put back. */
    static @Nullable CapacityOverride apply(ServiceClient dashboard, double capacity, PrintWriter out) {
        try {
            JsonNode stats = dashboard.get("/api/stats");
            double previous = ServiceClient.decimal(stats, "capacityPerSecond");
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("eventsPerSecond", capacity);
            dashboard.put("/admin/capacity", body, true);
            out.printf("analytics-dashboard capacity set to %s events/s for the rush (was %s)%n",
                    Figures.trim(capacity), Figures.trim(previous));
            return previous > 0 ? new CapacityOverride(dashboard, previous) : null;
        }
        catch (DemoException ex) {
            out.println("warning: could not set the dashboard's capacity: " + ex.getMessage());
            return null;
        }
    }

    /** Puts the old capacity back, once; says so on {@code out} unless it is null (a shutdown hook). */
    synchronized void restore(@Nullable PrintWriter out) {
        if (restored) {
            return;
        }
        restored = true;
        try {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("eventsPerSecond", previous);
            dashboard.put("/admin/capacity", body, true);
            if (out != null) {
                out.printf("analytics-dashboard capacity restored to %s events/s%n", Figures.trim(previous));
            }
        }
        catch (DemoException ex) {
            if (out != null) {
                out.println("warning: could not restore the dashboard's capacity: " + ex.getMessage());
            }
        }
    }
}
