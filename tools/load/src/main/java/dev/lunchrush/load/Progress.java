package dev.lunchrush.load;

import java.io.PrintWriter;

import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/** Progress bars: redrawn in place on a terminal, a line every few seconds in a log. */
public final class Progress {

    private Progress() {
    }

    public static ProgressBar bar(String task, long max, PrintWriter log) {
        ProgressBarBuilder builder = new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(max)
                .setStyle(ProgressBarStyle.ASCII)
                .showSpeed();
        if (System.console() == null) {
            // no terminal to redraw in: plain lines, not too many
            builder.setConsumer(new DelegatingProgressBarConsumer(line -> {
                log.println(line.strip());
                log.flush();
            }, 100)).setUpdateIntervalMillis(2000);
        }
        else {
            builder.setUpdateIntervalMillis(250);
        }
        return builder.build();
    }
}
