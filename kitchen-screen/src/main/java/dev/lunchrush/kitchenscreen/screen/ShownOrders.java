package dev.lunchrush.kitchenscreen.screen;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionTemplate;

import dev.lunchrush.events.OrderEvent;

/**
 * The ids of the orders this screen has shown, and its counters, in the embedded database: what
 * lets a restarted screen refuse an order it already showed, whatever the source redelivers.
 */
@Repository
class ShownOrders {

    static final String DUPLICATES = "duplicates";
    static final String IMPORTED = "imported";
    static final String RECEIVED_PREFIX = "received.";

    private final JdbcClient jdbc;
    private final JdbcTemplate jdbcTemplate;
    private final TransactionTemplate transactions;

    ShownOrders(JdbcClient jdbc, JdbcTemplate jdbcTemplate, TransactionTemplate transactions) {
        this.jdbc = jdbc;
        this.jdbcTemplate = jdbcTemplate;
        this.transactions = transactions;
    }

    /** The outcome of recording a batch: the orders shown for the first time, and how many were not. */
    record Recorded(List<OrderEvent> fresh, int duplicates) {
    }

    /** In one transaction: keeps the new orders' ids, skips the known ones, adds to the counters. */
    Recorded record(String source, List<OrderEvent> events, Instant shownAt) {
        return transactions.execute(status -> {
            Set<String> ids = new LinkedHashSet<>();
            events.forEach(event -> ids.add(event.orderId()));
            Set<String> known = new HashSet<>(jdbc.sql("select order_id from shown_orders where order_id in (:ids)")
                    .param("ids", ids).query(String.class).list());
            List<OrderEvent> fresh = new ArrayList<>();
            int duplicates = 0;
            for (OrderEvent event : events) {
                if (known.add(event.orderId())) {
                    fresh.add(event);
                }
                else {
                    duplicates++;
                }
            }
            jdbcTemplate.batchUpdate("insert into shown_orders (order_id, origin, kitchen_id, run_id, seq, placed_at_ms, "
                    + "shown_at_ms, source, customer_id, summary) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", fresh, 500,
                    (PreparedStatement ps, OrderEvent event) -> {
                        ShownOrder shown = ShownOrder.of(event, source, shownAt);
                        ps.setString(1, event.orderId());
                        ps.setString(2, event.origin());
                        ps.setString(3, event.kitchenId());
                        ps.setString(4, event.run());
                        ps.setLong(5, event.sequence());
                        ps.setLong(6, event.placedAt().toEpochMilli());
                        ps.setLong(7, shownAt.toEpochMilli());
                        ps.setString(8, source);
                        ps.setString(9, event.customerId());
                        ps.setString(10, shown.summary());
                    });
            long imported = fresh.stream().filter(event -> !event.isLive()).count();
            add(RECEIVED_PREFIX + source, fresh.size());
            add(IMPORTED, imported);
            add(DUPLICATES, duplicates);
            return new Recorded(fresh, duplicates);
        });
    }

    private void add(String counter, long delta) {
        if (delta == 0) {
            return;
        }
        int updated = jdbc.sql("update counters set n = n + :delta where name = :name")
                .param("delta", delta).param("name", counter).update();
        if (updated == 0) {
            jdbc.sql("insert into counters (name, n) values (:name, :delta)")
                    .param("name", counter).param("delta", delta).update();
        }
    }

    Map<String, Long> counters() {
        Map<String, Long> counters = new HashMap<>();
        jdbc.sql("select name, n from counters").query((rs, row) -> counters.put(rs.getString(1), rs.getLong(2))).list();
        return counters;
    }

    /** Live orders shown since {@code since}, in sequence order per run: to rebuild the gap finder. */
    List<MissingOrder> liveSequencesSince(Instant since) {
        return jdbc.sql("select run_id, seq from shown_orders where origin = 'live' and shown_at_ms >= :since "
                + "order by run_id, seq")
                .param("since", since.toEpochMilli())
                .query((rs, row) -> new MissingOrder(rs.getString(1), rs.getLong(2))).list();
    }

    private static final String SHOWN_COLUMNS = "select order_id, kitchen_id, run_id, seq, placed_at_ms, shown_at_ms, "
            + "customer_id, summary, source from shown_orders ";

    /** The latest live orders shown, newest first: to refill the columns after a restart. */
    List<ShownOrder> latest(int limit) {
        return jdbc.sql(SHOWN_COLUMNS + "where origin = 'live' order by shown_at_ms desc limit :limit")
                .param("limit", limit)
                .query(ShownOrders::shownOrder)
                .list();
    }

    /** The order with this id, if this screen has shown it (and not yet forgotten it). */
    Optional<ShownOrder> find(String orderId) {
        return jdbc.sql(SHOWN_COLUMNS + "where order_id = :id").param("id", orderId).query(ShownOrders::shownOrder).optional();
    }

    private static ShownOrder shownOrder(ResultSet rs, int row) throws SQLException {
        return new ShownOrder(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4),
                Instant.ofEpochMilli(rs.getLong(5)), Instant.ofEpochMilli(rs.getLong(6)), rs.getString(7),
                rs.getString(8), rs.getString(9), rs.getLong(6) - rs.getLong(5));
    }

    int forgetShownBefore(Instant before) {
        return jdbc.sql("delete from shown_orders where shown_at_ms < :before").param("before", before.toEpochMilli()).update();
    }
}
