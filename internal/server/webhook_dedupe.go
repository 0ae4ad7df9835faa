package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"time"
)

// Replays. A webhook sender retries and redelivers: GitHub redelivers
// with the same X-GitHub-Delivery, Telegram resends an update_id it got
// no answer for, Alertmanager repeats a firing alert every
// repeat_interval. And whoever holds a signed GitHub body can send it
// again under a new delivery id (the header is not signed). Each is
// answered 200 with duplicate and acted on once: deliveries are recorded
// (webhook_deliveries) under their id and, for GitHub, the SHA-256 of the
// signed body. The record is kept for DeliveryWindow, then pruned; an
// event older than the window (by the time its sender stamped in it) is
// ignored rather than acted on, so a replay after the pruning does not
// slip through either.

// DeliveryWindow is how long a delivery is remembered, and the age past
// which an event is too old to act on. GitHub lets a delivery be
// redelivered for 3 days, Telegram keeps an update for 24 hours.
const DeliveryWindow = 30 * 24 * time.Hour

// pruneEvery spaces the pruning of old deliveries (it runs on a delivery,
// not on a timer of its own).
const pruneEvery = time.Hour

// bodyKey is what identifies a signed body whatever delivery id it
// comes with.
func bodyKey(body []byte) string {
	sum := sha256.Sum256(body)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// seenDelivery answers 200 {"duplicate": true} (with the task it made,
// when there is one) if one of keys was recorded for source before; the
// caller then stops.
func (s *Server) seenDelivery(w http.ResponseWriter, r *http.Request, source string, keys ...string) bool {
	if s.o.Deliveries == nil {
		return false
	}
	for _, k := range keys {
		taskID, seen, err := s.o.Deliveries.DeliveryTask(r.Context(), source, k)
		if err != nil {
			// Unsure whether it is a replay: the sender retries a 503.
			s.o.Log.Error("webhook: delivery lookup", "source", source, "err", err)
			writeError(w, http.StatusServiceUnavailable, "store_unavailable", "could not check whether this delivery was seen before: "+err.Error())
			return true
		}
		if seen {
			s.metrics.webhooks.WithLabelValues(source, "duplicate").Inc()
			b := map[string]any{"duplicate": true}
			if taskID != "" {
				if t, err := s.o.Tasks.Task(r.Context(), taskID); err == nil {
					b["task"] = t
				}
			}
			writeJSON(w, http.StatusOK, b)
			return true
		}
	}
	return false
}

// recordDelivery notes keys of source as acted on (and the task made,
// if any), then prunes what is past the window when that is due.
func (s *Server) recordDelivery(ctx context.Context, source, taskID string, keys ...string) {
	if s.o.Deliveries == nil {
		return
	}
	now := s.o.Now()
	for _, k := range keys {
		if _, err := s.o.Deliveries.ClaimDelivery(ctx, source, k, now); err != nil {
			s.o.Log.Error("webhook: record delivery", "source", source, "err", err)
			continue
		}
		if taskID != "" {
			_ = s.o.Deliveries.SetDeliveryTask(ctx, source, k, taskID)
		}
	}
	s.pruneDeliveries(ctx, now)
}

// pruneDeliveries forgets deliveries older than the window, at most once
// per pruneEvery.
func (s *Server) pruneDeliveries(ctx context.Context, now time.Time) {
	s.touchMu.Lock()
	due := now.Sub(s.lastPrune) >= pruneEvery
	if due {
		s.lastPrune = now
	}
	s.touchMu.Unlock()
	if !due {
		return
	}
	if n, err := s.o.Deliveries.PruneDeliveries(ctx, now.Add(-DeliveryWindow)); err != nil {
		s.o.Log.Error("webhook: prune deliveries", "err", err)
	} else if n > 0 {
		s.o.Log.Info("webhook: forgot old deliveries", "count", n, "older_than", now.Add(-DeliveryWindow).UTC().Format(time.RFC3339))
	}
}

// tooOld answers 202 ignored when at (the time the sender stamped in the
// event) is older than the window: a replay of something that old could
// no longer be told from a new event. A zero at is not judged.
func (s *Server) tooOld(w http.ResponseWriter, source string, at time.Time) bool {
	if at.IsZero() || s.o.Now().Sub(at) <= DeliveryWindow {
		return false
	}
	s.o.Log.Warn("webhook: event too old", "source", source, "at", at.UTC().Format(time.RFC3339))
	s.ignored(w, source, fmt.Sprintf("the event is from %s, older than the %d days deliveries are remembered", at.UTC().Format(time.RFC3339), int(DeliveryWindow.Hours()/24)))
	return true
}

// deliverySeen reports whether key of source was recorded, and its task
// (a store error counts as not seen: the task's idempotency key still
// stops a second task).
func (s *Server) deliverySeen(ctx context.Context, source, key string) (taskID string, seen bool) {
	if s.o.Deliveries == nil {
		return "", false
	}
	taskID, seen, err := s.o.Deliveries.DeliveryTask(ctx, source, key)
	if err != nil {
		s.o.Log.Error("webhook: delivery lookup", "source", source, "err", err)
		return "", false
	}
	return taskID, seen
}
