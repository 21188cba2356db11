/** {@code act}: switch the running stack to one of the lesson's acts. */
@NullMarked
package dev.lunchrush.loadgenerator.act;

import org.jspecify.annotations.NullMarked;
