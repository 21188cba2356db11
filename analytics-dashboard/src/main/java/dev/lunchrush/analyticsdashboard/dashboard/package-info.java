/**
 * The page, its live stream, the stats and the day reports.
 */
@NullMarked
package dev.lunchrush.analyticsdashboard.dashboard;

import org.jspecify.annotations.NullMarked;
