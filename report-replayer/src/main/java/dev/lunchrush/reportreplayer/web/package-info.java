@NullMarked
package dev.lunchrush.reportreplayer.web;

import org.jspecify.annotations.NullMarked;
