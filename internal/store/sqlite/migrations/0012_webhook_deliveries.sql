-- 0012: webhook deliveries already acted on, so a replayed delivery (same
-- source and delivery id) makes nothing twice.
CREATE TABLE IF NOT EXISTS webhook_deliveries (
    source      TEXT    NOT NULL,
    delivery_id TEXT    NOT NULL,
    time_us     INTEGER NOT NULL,
    task_id     TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (source, delivery_id)
);
