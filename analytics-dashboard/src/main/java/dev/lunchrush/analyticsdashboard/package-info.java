/**
 * The analytics dashboard: orders per kitchen, portions per dish, orders per hour; the slow job.
 */
@NullMarked
package dev.lunchrush.analyticsdashboard;

import org.jspecify.annotations.NullMarked;
