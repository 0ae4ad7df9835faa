-- 0065: twin of the PostgreSQL migration that indexes the case-insensitive
-- event filters. Deliberately no index here: every hook inserts an event
-- row into this store, and three more indexes would cost each hook their
-- upkeep, while the local store stays small (retention) and its filters
-- read the id index backwards and stop at the page's limit. The number is
-- kept so both stores share one schema version.
SELECT 1;
