@NullMarked
package dev.lunchrush.analyticsdashboard;

import org.jspecify.annotations.NullMarked;
