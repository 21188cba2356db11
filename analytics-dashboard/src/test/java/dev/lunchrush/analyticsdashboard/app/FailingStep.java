package dev.lunchrush.analyticsdashboard.app;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

import org.h2.api.Trigger;

/**
 * An H2 trigger on the {@code received} row that every step of the job writes: the {@link #failAt}-th write
 * fails with an SQL error, once, as a database error would, and the step's transaction rolls back; or every write
 * while {@link #failEvery}.
 */
public class FailingStep implements Trigger {

    static final AtomicInteger writes = new AtomicInteger();
    static final AtomicInteger failures = new AtomicInteger();
    static volatile int failAt = -1;
    /** Every write fails while set: the database down, as far as the job can tell. */
    static volatile boolean failEvery;

    @Override
    public void fire(Connection connection, Object[] oldRow, Object[] newRow) throws SQLException {
        if (failEvery) {
            failures.incrementAndGet();
            throw new SQLException("injected database failure: every write fails");
        }
        if (writes.incrementAndGet() == failAt) {
            failures.incrementAndGet();
            throw new SQLException("injected database failure at write " + failAt);
        }
    }
}
