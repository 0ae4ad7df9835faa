-- 0076: the index pruning of old webhook deliveries uses (twin of the
-- SQLite migration).
CREATE INDEX IF NOT EXISTS webhook_deliveries_time ON webhook_deliveries (time_us);
