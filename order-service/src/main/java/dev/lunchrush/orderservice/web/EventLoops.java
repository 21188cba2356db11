package dev.lunchrush.orderservice.web;

import java.util.concurrent.Executor;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.ThreadExecutorMap;

/**
 * The event loop of the request being handled, so that the work after a broker's answer (an ack,
 * a confirm) goes on where the request's connection lives: the broker client's own I/O thread only
 * completes the future and hands over, once per batch of answers rather than once per order (a loop
 * that is awake already is not woken again), and the answer is written without a further hop.
 */
public final class EventLoops {

    private static final Executor DIRECT = Runnable::run;

    private EventLoops() {
    }

    /** The calling thread's event loop; a direct executor on any other thread (tests, a worker pool). */
    public static Executor current() {
        EventExecutor loop = ThreadExecutorMap.currentExecutor();
        return loop != null ? loop : DIRECT;
    }
}
