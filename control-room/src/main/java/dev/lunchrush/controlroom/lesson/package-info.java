/** What the page shows of the stack, once a second while a page is open, and the act's switch. */
@NullMarked
package dev.lunchrush.controlroom.lesson;

import org.jspecify.annotations.NullMarked;
