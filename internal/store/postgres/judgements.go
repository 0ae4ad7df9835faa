package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/warden-dev/warden/internal/store"
)

// LLM judge calls and lazy verdicts (migration 0007).

// RecordJudgementRow saves one judge call.
func (s *Store) RecordJudgementRow(ctx context.Context, j *store.Judgement) error {
	if j.Time.IsZero() {
		j.Time = time.Now()
	}
	return s.pool.QueryRow(ctx, `INSERT INTO judgements (ts_us, session_id, tool_use_id, judge, provider, model,
		tokens_in, tokens_out, cost_usd, latency_ms, attempts, verdict, decision, reason, error, lazy)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16) RETURNING id`,
		j.Time.UnixMicro(), j.SessionID, j.ToolUseID, j.Judge, j.Provider, j.Model, j.TokensIn, j.TokensOut,
		j.CostUSD, j.LatencyMS, j.Attempts, j.Verdict, j.Decision, j.Reason, j.Error, j.Lazy).Scan(&j.ID)
}

// Judgements lists recorded judge calls, oldest first.
func (s *Store) Judgements(ctx context.Context, f store.JudgementFilter) ([]store.Judgement, error) {
	var p params
	q := `SELECT id, ts_us, session_id, tool_use_id, judge, provider, model, tokens_in, tokens_out, cost_usd,
		latency_ms, attempts, verdict, decision, reason, error, lazy FROM judgements WHERE true`
	if f.SessionID != "" {
		q += " AND session_id = " + p.add(f.SessionID)
	}
	if f.Judge != "" {
		q += " AND judge = " + p.add(f.Judge)
	}
	if !f.Since.IsZero() {
		q += " AND ts_us >= " + p.add(f.Since.UnixMicro())
	}
	q += " ORDER BY id DESC"
	if f.Limit > 0 {
		q += " LIMIT " + p.add(f.Limit)
	}
	rows, err := s.pool.Query(ctx, q, p...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Judgement
	for rows.Next() {
		var j store.Judgement
		var ts int64
		if err := rows.Scan(&j.ID, &ts, &j.SessionID, &j.ToolUseID, &j.Judge, &j.Provider, &j.Model, &j.TokensIn,
			&j.TokensOut, &j.CostUSD, &j.LatencyMS, &j.Attempts, &j.Verdict, &j.Decision, &j.Reason, &j.Error, &j.Lazy); err != nil {
			return nil, err
		}
		j.Time = micros(ts)
		out = append(out, j)
	}
	for i, k := 0, len(out)-1; i < k; i, k = i+1, k-1 {
		out[i], out[k] = out[k], out[i]
	}
	return out, rows.Err()
}

// AddPending stores a lazy request and returns its id.
func (s *Store) AddPending(ctx context.Context, p *store.PendingVerdict) (int64, error) {
	if p.Created.IsZero() {
		p.Created = time.Now()
	}
	err := s.pool.QueryRow(ctx, `INSERT INTO judge_pending (session_id, created_us, state, judge, tool, target, request)
		VALUES ($1,$2,'pending',$3,$4,$5,$6) RETURNING id`, p.SessionID, p.Created.UnixMicro(), p.Judge, p.Tool, p.Target,
		string(p.Request)).Scan(&p.ID)
	if err != nil {
		return 0, err
	}
	p.State = "pending"
	return p.ID, nil
}

// Pending loads a lazy request; nil when unknown.
func (s *Store) Pending(ctx context.Context, id int64) (*store.PendingVerdict, error) {
	var p store.PendingVerdict
	var created, done int64
	var req string
	err := s.pool.QueryRow(ctx, `SELECT id, session_id, created_us, done_us, state, judge, tool, target, request, reason
		FROM judge_pending WHERE id = $1`, id).Scan(&p.ID, &p.SessionID, &created, &done, &p.State, &p.Judge, &p.Tool,
		&p.Target, &req, &p.Reason)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	p.Created, p.Request = time.UnixMicro(created), []byte(req)
	if done > 0 {
		p.Done = time.UnixMicro(done)
	}
	return &p, nil
}

// FinishPending stores the outcome of a lazy run: state passed, failed or
// error, with the reason. Only a pending row changes.
func (s *Store) FinishPending(ctx context.Context, id int64, state, reason string) error {
	_, err := s.pool.Exec(ctx, `UPDATE judge_pending SET state = $1, reason = $2, done_us = $3 WHERE id = $4 AND state = 'pending'`,
		state, reason, time.Now().UnixMicro(), id)
	return err
}

// TakeFailedVerdict returns the oldest failed verdict of a session created
// after since and marks it delivered, so it is delivered once (SKIP LOCKED:
// two callers racing never take the same row); nil when there is none.
// Rows older than since are deleted on the way.
func (s *Store) TakeFailedVerdict(ctx context.Context, sessionID string, since time.Time) (*store.PendingVerdict, error) {
	var got *store.PendingVerdict
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		got = nil
		if _, err := tx.Exec(ctx, `DELETE FROM judge_pending WHERE session_id = $1 AND created_us < $2`,
			sessionID, since.UnixMicro()); err != nil {
			return err
		}
		var p store.PendingVerdict
		var created int64
		err := tx.QueryRow(ctx, `UPDATE judge_pending SET state = 'delivered' WHERE id = (
				SELECT id FROM judge_pending WHERE session_id = $1 AND state = 'failed' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
			RETURNING id, session_id, created_us, judge, tool, target, reason`, sessionID).Scan(&p.ID, &p.SessionID, &created,
			&p.Judge, &p.Tool, &p.Target, &p.Reason)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		p.Created, p.State = time.UnixMicro(created), "delivered"
		got = &p
		return nil
	})
	return got, err
}
