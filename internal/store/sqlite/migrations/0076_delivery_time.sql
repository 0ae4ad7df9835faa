-- 0076: webhook deliveries are kept for a bounded time (the daemon
-- prunes those older than its replay window); the index finds them.
CREATE INDEX IF NOT EXISTS webhook_deliveries_time ON webhook_deliveries (time_us);
