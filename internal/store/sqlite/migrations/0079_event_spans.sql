-- 0079: the handlers' timings of a hook (internal/hookspan), kept while
-- otel.traces is on, for the trace export to build a span per handler.
ALTER TABLE events ADD COLUMN spans TEXT NOT NULL DEFAULT '';
