/**
 * Checks of the monitoring in {@code infra/}: what the Grafana dashboards and the Prometheus alert
 * rules query, and whether the running services really export it.
 */
@NullMarked
package dev.lunchrush.scenarios.infra;

import org.jspecify.annotations.NullMarked;
