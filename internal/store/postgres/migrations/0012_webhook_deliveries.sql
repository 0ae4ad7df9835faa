-- 0012: webhook deliveries already acted on (twin of the SQLite migration).
CREATE TABLE webhook_deliveries (
    source      TEXT    NOT NULL,
    delivery_id TEXT    NOT NULL,
    time_us     BIGINT  NOT NULL,
    task_id     TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (source, delivery_id)
);
