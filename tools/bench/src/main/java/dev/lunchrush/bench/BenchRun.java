package dev.lunchrush.bench;

import java.io.PrintWriter;
import java.nio.file.Path;

import dev.lunchrush.localstack.StackControl;
import dev.lunchrush.localstack.access.OrderServiceClient;
import dev.lunchrush.localstack.access.ReaderClient;
import dev.lunchrush.localstack.access.ServiceClient;

/**
 * What every section of one run works with: the stack of {@code ./demo up}, its services, whether the run is a
 * smoke test, and the console.
 */
record BenchRun(Path root, StackControl stack, OrderServiceClient orderService, ReaderClient kitchenScreen,
        ReaderClient dashboard, ServiceClient replayer, boolean smoke, PrintWriter out) {

    /** Puts the stack in an act ({@code log}, {@code shared-queue}). */
    void act(String act) {
        orderService.switchAct(act);
    }

    void say(String line) {
        out.println(line);
        out.flush();
    }
}
