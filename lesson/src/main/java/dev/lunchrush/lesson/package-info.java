/**
 * The lesson's per-act knowledge, apart from any HTTP: each act's predictions for a rush and its closing lines
 * measured against them ({@link dev.lunchrush.lesson.ActLesson}, one class per act, picked by
 * {@link dev.lunchrush.lesson.Lessons}), the lesson's arithmetic, and the series of a rush's snapshots that the
 * measured side is read from.
 */
@NullMarked
package dev.lunchrush.lesson;

import org.jspecify.annotations.NullMarked;
