@NullMarked
package dev.lunchrush.reportreplayer.report;

import org.jspecify.annotations.NullMarked;
