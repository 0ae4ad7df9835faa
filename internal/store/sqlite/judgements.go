package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// Judgement is one LLM judge call (migration 0007); the type lives in
// package store so every Store implementation shares it.
type Judgement = store.Judgement

// RecordJudgementRow saves one judge call.
func (s *Store) RecordJudgementRow(ctx context.Context, j *Judgement) error {
	if j.Time.IsZero() {
		j.Time = time.Now()
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO judgements (ts_us, session_id, tool_use_id, judge, provider, model,
		tokens_in, tokens_out, cost_usd, latency_ms, attempts, verdict, decision, reason, error, lazy)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		j.Time.UnixMicro(), j.SessionID, j.ToolUseID, j.Judge, j.Provider, j.Model, j.TokensIn, j.TokensOut,
		j.CostUSD, j.LatencyMS, j.Attempts, j.Verdict, j.Decision, j.Reason, j.Error, j.Lazy)
	if err != nil {
		return err
	}
	j.ID, _ = res.LastInsertId()
	return nil
}

// JudgementFilter selects judgements (store.JudgementFilter).
type JudgementFilter = store.JudgementFilter

// Judgements lists recorded judge calls, oldest first.
func (s *Store) Judgements(ctx context.Context, f JudgementFilter) ([]Judgement, error) {
	q := `SELECT id, ts_us, session_id, tool_use_id, judge, provider, model, tokens_in, tokens_out, cost_usd,
		latency_ms, attempts, verdict, decision, reason, error, lazy FROM judgements WHERE 1=1`
	var args []any
	if f.SessionID != "" {
		q += " AND session_id = ?"
		args = append(args, f.SessionID)
	}
	if f.Judge != "" {
		q += " AND judge = ?"
		args = append(args, f.Judge)
	}
	if !f.Since.IsZero() {
		q += " AND ts_us >= ?"
		args = append(args, f.Since.UnixMicro())
	}
	q += " ORDER BY id DESC"
	if f.Limit > 0 {
		q += " LIMIT ?"
		args = append(args, f.Limit)
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Judgement
	for rows.Next() {
		var j Judgement
		var ts int64
		if err := rows.Scan(&j.ID, &ts, &j.SessionID, &j.ToolUseID, &j.Judge, &j.Provider, &j.Model, &j.TokensIn,
			&j.TokensOut, &j.CostUSD, &j.LatencyMS, &j.Attempts, &j.Verdict, &j.Decision, &j.Reason, &j.Error, &j.Lazy); err != nil {
			return nil, err
		}
		j.Time = time.UnixMicro(ts).UTC()
		out = append(out, j)
	}
	for i, k := 0, len(out)-1; i < k; i, k = i+1, k-1 {
		out[i], out[k] = out[k], out[i]
	}
	return out, rows.Err()
}

// PendingVerdict is a lazy judge run (store.PendingVerdict).
type PendingVerdict = store.PendingVerdict

// AddPending stores a lazy request and returns its id.
func (s *Store) AddPending(ctx context.Context, p *PendingVerdict) (int64, error) {
	if p.Created.IsZero() {
		p.Created = time.Now()
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO judge_pending (session_id, created_us, state, judge, tool, target, request)
		VALUES (?,?,'pending',?,?,?,?)`, p.SessionID, p.Created.UnixMicro(), p.Judge, p.Tool, p.Target, string(p.Request))
	if err != nil {
		return 0, err
	}
	p.ID, err = res.LastInsertId()
	p.State = "pending"
	return p.ID, err
}

// Pending loads a lazy request; nil when unknown.
func (s *Store) Pending(ctx context.Context, id int64) (*PendingVerdict, error) {
	var p PendingVerdict
	var created, done int64
	var req string
	err := s.db.QueryRowContext(ctx, `SELECT id, session_id, created_us, done_us, state, judge, tool, target, request, reason
		FROM judge_pending WHERE id = ?`, id).Scan(&p.ID, &p.SessionID, &created, &done, &p.State, &p.Judge, &p.Tool,
		&p.Target, &req, &p.Reason)
	if errors.Is(err, sql.ErrNoRows) {
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
	_, err := s.db.ExecContext(ctx, `UPDATE judge_pending SET state = ?, reason = ?, done_us = ? WHERE id = ? AND state = 'pending'`,
		state, reason, time.Now().UnixMicro(), id)
	return err
}

// TakeFailedVerdict returns the oldest failed verdict of a session created
// after since and marks it delivered, so it is delivered once; nil when
// there is none. Rows older than since are deleted on the way.
func (s *Store) TakeFailedVerdict(ctx context.Context, sessionID string, since time.Time) (*PendingVerdict, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM judge_pending WHERE session_id = ? AND created_us < ?`,
		sessionID, since.UnixMicro()); err != nil {
		return nil, err
	}
	var p PendingVerdict
	var created int64
	err = tx.QueryRowContext(ctx, `SELECT id, session_id, created_us, judge, tool, target, reason FROM judge_pending
		WHERE session_id = ? AND state = 'failed' ORDER BY id LIMIT 1`, sessionID).Scan(&p.ID, &p.SessionID, &created,
		&p.Judge, &p.Tool, &p.Target, &p.Reason)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, tx.Commit()
	}
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE judge_pending SET state = 'delivered' WHERE id = ?`, p.ID); err != nil {
		return nil, err
	}
	p.Created, p.State = time.UnixMicro(created), "delivered"
	return &p, tx.Commit()
}
