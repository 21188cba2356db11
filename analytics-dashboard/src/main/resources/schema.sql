-- orders per UTC minute and kitchen, portions per UTC minute and dish: any zone's day and hours are
-- whole minutes in UTC, so day reports in any zone are exact. A kitchen's id and a dish are at most
-- OrderLimits.MAX_ID_LENGTH (64) characters: the codec refuses a record with a longer one. Tables made by
-- earlier versions keep their wider columns (200), which hold the same
CREATE TABLE IF NOT EXISTS kitchen_minute (
    utc_minute BIGINT       NOT NULL,
    kitchen_id VARCHAR(64)  NOT NULL,
    orders     BIGINT       NOT NULL,
    PRIMARY KEY (utc_minute, kitchen_id)
);
CREATE TABLE IF NOT EXISTS dish_minute (
    utc_minute BIGINT       NOT NULL,
    dish     VARCHAR(64)  NOT NULL,
    portions BIGINT       NOT NULL,
    PRIMARY KEY (utc_minute, dish)
);
-- orders processed per source
CREATE TABLE IF NOT EXISTS received (
    source VARCHAR(32) PRIMARY KEY,
    n      BIGINT      NOT NULL
);
-- the next offset to read per partition, written in the same transaction as the counts above
CREATE TABLE IF NOT EXISTS kafka_offsets (
    topic        VARCHAR(200) NOT NULL,
    partition_id INT          NOT NULL,
    next_offset  BIGINT       NOT NULL,
    PRIMARY KEY (topic, partition_id)
);
-- which log the offsets above belong to: Kafka's id of the topic when they were stored. A topic deleted and
-- made again, or another cluster behind the same address, has another id, and its offsets start afresh
CREATE TABLE IF NOT EXISTS kafka_topics (
    topic    VARCHAR(200) PRIMARY KEY,
    topic_id VARCHAR(32)  NOT NULL
);
