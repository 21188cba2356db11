package dev.lunchrush.support.server;

import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Hooks;

import org.springframework.beans.factory.InitializingBean;

/**
 * Reactor's errors with nobody left to take them ({@link Hooks#onErrorDropped}): a connection closed or timed out
 * under a request whose answer was already decided ({@link ClosedConnections}: the request timeout, a client gone) is
 * logged at debug, one line, as what it is; any other dropped error at error level with its stack trace, as Reactor
 * does by default. Without it each request timeout wrote an error entry "Operator called default onErrorDropped":
 * 24,000 of them in one run of {@code ./demo chaos --scenario hostile-clients}. Reactor's hooks are the JVM's and add
 * up, so it is set once per JVM.
 */
final class DroppedErrors implements InitializingBean {

    private static final Logger log = LoggerFactory.getLogger(DroppedErrors.class);

    private static final AtomicBoolean SET = new AtomicBoolean();

    @Override
    public void afterPropertiesSet() {
        if (SET.compareAndSet(false, true)) {
            Hooks.onErrorDropped(DroppedErrors::dropped);
        }
    }

    static void dropped(Throwable error) {
        if (ClosedConnections.closedUnderARequest(error)) {
            log.debug("a connection closed or timed out under a request already answered: {}", error.toString());
        }
        else {
            log.error("an error with nobody left to take it (Reactor's onErrorDropped)", error);
        }
    }
}
