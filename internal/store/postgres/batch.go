package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/warden-dev/warden/internal/store"
)

// RecordEvents appends events to the audit chain in the order given, in
// one transaction under the chain's lock, with one COPY: what shipping a
// spool of local events needs (a few thousand rows cost one round trip,
// not one transaction each). Each event gets its ID, PrevHash and Hash as
// RecordHook would give it; on error none is stored.
func (s *Store) RecordEvents(ctx context.Context, evs []*store.Event) error {
	if len(evs) == 0 {
		return nil
	}
	rows := make([][]any, len(evs))
	return s.inTx(ctx, func(tx pgx.Tx) error {
		if err := lock(ctx, tx, lockChain); err != nil {
			return fmt.Errorf("record events: lock the chain: %w", err)
		}
		lastID, prev, err := chainTip(ctx, tx)
		if err != nil {
			return fmt.Errorf("record events: read chain tip: %w", err)
		}
		for i, ev := range evs {
			if ev.Time.IsZero() {
				ev.Time = time.Now()
			}
			if ev.Harness == "" {
				ev.Harness = "claude"
			}
			if ev.Decision == "" {
				ev.Decision = "allow"
			}
			ev.Time = time.UnixMicro(ev.Time.UnixMicro()).UTC()
			ev.ID = lastID + 1 + int64(i)
			ev.PrevHash = prev
			ev.Hash = store.ChainHash(prev, ev)
			prev = ev.Hash
			var raw *string
			if len(ev.Raw) > 0 {
				r := string(ev.Raw)
				raw = &r
			}
			rows[i] = []any{ev.ID, ev.Time.UnixMicro(), ev.SessionID, ev.Event, ev.Harness,
				ev.Tool, ev.ToolUseID, ev.AgentID, ev.Cwd, ev.Path, ev.Decision, ev.Rule, ev.Mode, ev.Reason,
				ev.Error, ev.LatencyUS, ev.DurationMS, raw, ev.PrevHash, ev.Hash, ev.SleptMS,
				ev.HashBefore, ev.HashAfter, ev.LinesAdded, ev.LinesRemoved, ev.TaskID, ev.Detail}
		}
		_, err = tx.CopyFrom(ctx, pgx.Identifier{"events"}, eventColumns, pgx.CopyFromRows(rows))
		if err != nil {
			return fmt.Errorf("record events: %w", err)
		}
		return nil
	})
}

// eventColumns is eventCols as a list, for COPY.
var eventColumns = []string{"id", "ts_us", "session_id", "event", "harness", "tool", "tool_use_id", "agent_id", "cwd", "path",
	"decision", "rule", "mode", "reason", "error", "latency_us", "duration_ms", "raw", "prev_hash", "hash", "slept_ms",
	"hash_before", "hash_after", "lines_added", "lines_removed", "task_id", "detail"}
