/**
 * The slow job: a capacity in events per second in front of processing, and the day aggregates
 * kept with the consumed offsets in one transaction.
 */
@NullMarked
package dev.lunchrush.analyticsdashboard.processing;

import org.jspecify.annotations.NullMarked;
