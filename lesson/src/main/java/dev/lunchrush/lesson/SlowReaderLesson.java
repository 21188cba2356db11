package dev.lunchrush.lesson;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What acts 3 and 4 share: every reader gets every order, and the slow reader's backlog follows the lesson's
 * arithmetic (surplus, growth, the budget, the backlog at 12:35, the wait, the spare capacity, the catch-up). Each
 * act says where the memory it is about grows and how the time to fill the budget is predicted.
 */
abstract class SlowReaderLesson implements ActLesson {

    @Override
    public final boolean readersCompete() {
        return false;
    }

    @Override
    public final boolean everyOrderArrived(long placed, long kitchenGot, long dashboardGot) {
        return kitchenGot >= placed && dashboardGot >= placed;
    }

    /** What the memory growth line measures. */
    abstract String memoryNote();

    /**
     * When an unbounded feed fills its budget: the death (or none) against the arithmetic. Here, what an unbounded
     * feed would do at the asked rates.
     */
    ClosingLine fillLine(RushMeasurement measured, @Nullable Death death) {
        LessonArithmetic predicted = measured.predicted();
        double fill = death == null ? Double.NaN : death.atSeconds();
        return new ClosingLine("time to fill the budget", "s", fill, predicted.secondsToFillBudget(), outcome(predicted, death));
    }

    static String outcome(LessonArithmetic predicted, @Nullable Death death) {
        String budget = "a budget of %.1f MB".formatted(predicted.budgetBytes() / 1e6);
        return death == null ? "did not die; " + budget : "died at " + death.clock() + "; " + budget;
    }

    @Override
    public final List<ClosingLine> closingLines(RushMeasurement measured, @Nullable Death death) {
        LessonArithmetic predicted = measured.predicted();
        RateProfile profile = measured.profile();
        double peakEnd = measured.peakEnd();
        // a service that died before the end of the rush has no backlog then: what it held died with it
        boolean diedBeforePeakEnd = death != null && death.atSeconds() < peakEnd;
        String peakEndClock = profile.clock(peakEnd);
        double wait = measured.waitForEventAppendedAtEndOfPeak();
        // a profile without an "after the rush" segment has no spare capacity to predict, nor a catch-up
        boolean after = measured.hasAfter();
        return List.of(measured.surplusLine(),
                new ClosingLine("memory growth", "KB/s", memoryGrowth(measured) / 1000,
                        predicted.memoryGrowthBytesPerSecond() / 1000, memoryNote()),
                fillLine(measured, death),
                new ClosingLine("backlog at the end of the rush", "events",
                        diedBeforePeakEnd ? Double.NaN : measured.backlogAtEndOfPeak(), predicted.backlogAtEndOfPeak(),
                        diedBeforePeakEnd ? "died before " + peakEndClock + ", its feed with it"
                                : "at " + peakEndClock + measured.startedBehind()),
                new ClosingLine("wait for an event appended then", "s", wait,
                        predicted.secondsWaitForEventAppendedAtEndOfPeak(), measured.lessonMinutes(wait)),
                new ClosingLine("spare capacity (out − after)", "events/s", measured.spareCapacity(),
                        after ? predicted.spareCapacity() : Double.NaN, after ? "" : "no segment after the rush"),
                measured.catchUpLine());
    }
}
