-- the orders this screen has shown (all of them, live and imported): a redelivered one is a duplicate
CREATE TABLE IF NOT EXISTS shown_orders (
    order_id     VARCHAR(200) PRIMARY KEY,
    origin       VARCHAR(16)  NOT NULL,
    kitchen_id   VARCHAR(200) NOT NULL,
    run_id       VARCHAR(200),
    seq          BIGINT       NOT NULL,
    placed_at_ms BIGINT       NOT NULL,
    shown_at_ms  BIGINT       NOT NULL,
    source       VARCHAR(32)  NOT NULL,
    customer_id  VARCHAR(200),
    summary      VARCHAR(1000)
);
CREATE INDEX IF NOT EXISTS shown_orders_shown_at ON shown_orders (shown_at_ms);

-- received per source, duplicates ignored, imported: kept with the ids, in the same transactions
CREATE TABLE IF NOT EXISTS counters (
    name VARCHAR(64) PRIMARY KEY,
    n    BIGINT NOT NULL
);
