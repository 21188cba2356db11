package dev.lunchrush.chaos;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

import dev.lunchrush.localstack.access.DemoException;

/**
 * {@code kill -STOP} and {@code -CONT} within a millisecond: a shell started beforehand runs its built-in {@code kill}
 * for each line it is sent, where starting a {@code kill} process takes tens of milliseconds, longer than the moment
 * between a batch's last record and its commit that {@code backfill-kafka-freeze} aims at.
 */
final class QuickSignals implements AutoCloseable {

    private final Process shell;
    private final Writer commands;
    private final BufferedReader answers;

    QuickSignals() {
        try {
            shell = new ProcessBuilder("sh", "-c", "while read signal pid; do kill -$signal $pid; echo $?; done")
                    .redirectErrorStream(true).start();
        }
        catch (IOException ex) {
            throw new DemoException("cannot start sh for the signals: " + ex.getMessage());
        }
        commands = new OutputStreamWriter(shell.getOutputStream(), StandardCharsets.US_ASCII);
        answers = new BufferedReader(new InputStreamReader(shell.getInputStream(), StandardCharsets.US_ASCII));
    }

    /** Sends {@code signal} ({@code STOP}, {@code CONT}) to the process; fails when {@code kill} does. */
    void send(long pid, String signal) {
        try {
            commands.write(signal + " " + pid + "\n");
            commands.flush();
            String exit = answers.readLine();
            if (!"0".equals(exit)) {
                throw new DemoException("kill -" + signal + " " + pid + " failed: " + exit);
            }
        }
        catch (IOException ex) {
            throw new DemoException("kill -" + signal + " " + pid + " failed: " + ex.getMessage());
        }
    }

    @Override
    public void close() {
        shell.destroy();
    }
}
