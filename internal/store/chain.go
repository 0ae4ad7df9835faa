package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// ChainHash is the hash of one event row in the audit chain: SHA-256 over
// the previous row's hash and every recorded field, so changing, deleting or
// reordering a row breaks the link to the next one. Every Store
// implementation computes it the same way when it inserts a row.
func ChainHash(prev string, e *Event) string {
	// The fields go into one buffer hashed at once: writing each piece to
	// the hash converted every string (the raw payload too) to a new byte
	// slice, ~3.7 KB and 40 allocations per recorded hook.
	b := make([]byte, 0, 256+len(prev)+len(e.Raw)+len(e.Reason)+len(e.Cwd)+len(e.Path)+len(e.Detail))
	field := func(s string) {
		b = strconv.AppendInt(b, int64(len(s)), 10)
		b = append(b, ':')
		b = append(b, s...)
	}
	num := func(n int64) {
		var d [20]byte
		digits := strconv.AppendInt(d[:0], n, 10)
		b = strconv.AppendInt(b, int64(len(digits)), 10)
		b = append(b, ':')
		b = append(b, digits...)
	}
	field(prev)
	num(e.ID)
	num(e.Time.UnixMicro())
	for _, s := range [...]string{e.SessionID, e.Event, e.Harness, e.Tool, e.ToolUseID, e.AgentID, e.Cwd,
		e.Path, e.Decision, e.Rule, e.Mode, e.Reason, e.Error} {
		field(s)
	}
	num(e.LatencyUS)
	num(e.SleptMS)
	optional := func(n *int64) {
		if n != nil {
			num(*n)
		} else {
			field("null")
		}
	}
	optional(e.DurationMS)
	b = strconv.AppendInt(b, int64(len(e.Raw)), 10) // field(string(e.Raw)) without copying it
	b = append(b, ':')
	b = append(b, e.Raw...)
	// The file fields came later (migration 0020): hashed only when set, so
	// the rows written before them keep their hashes.
	if e.HashBefore != "" || e.HashAfter != "" || e.LinesAdded != nil || e.LinesRemoved != nil {
		field("file")
		field(e.HashBefore)
		field(e.HashAfter)
		optional(e.LinesAdded)
		optional(e.LinesRemoved)
	}
	// Added later: hashed only when set, so rows written before these
	// columns existed keep their hashes.
	if e.TaskID != "" || e.Detail != "" {
		field("task")
		field(e.TaskID)
		field(e.Detail)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// ChainBreak describes the first place the audit chain does not hold.
type ChainBreak struct {
	ID     int64  `json:"id"`
	Reason string `json:"reason"`
}

// ChainWalk checks the audit chain one row at a time, in id order: both
// stores stream their rows through it, so a chain verifies the same way
// whichever store holds it.
type ChainWalk struct {
	prevID   int64
	prevHash string
	checked  int64
}

// NewChainWalk starts at the retention anchor ("<id> <hash>" of the newest
// row retention deleted, SettingChainAnchor; "" when nothing was deleted).
func NewChainWalk(anchor string) *ChainWalk {
	w := &ChainWalk{}
	if anchor != "" {
		idStr, h, _ := strings.Cut(anchor, " ")
		w.prevID, _ = strconv.ParseInt(idStr, 10, 64)
		w.prevHash = h
	}
	return w
}

// Next checks e, the row after the last one checked, and returns the break
// it finds (nil when e holds).
func (w *ChainWalk) Next(e *Event) *ChainBreak {
	w.checked++
	switch {
	case e.ID != w.prevID+1:
		return &ChainBreak{ID: e.ID, Reason: fmt.Sprintf("row %d follows row %d: rows %d..%d are missing", e.ID, w.prevID, w.prevID+1, e.ID-1)}
	case e.PrevHash != w.prevHash:
		return &ChainBreak{ID: e.ID, Reason: fmt.Sprintf("row %d does not link to the row before it (deleted, replaced or reordered)", e.ID)}
	case ChainHash(e.PrevHash, e) != e.Hash:
		return &ChainBreak{ID: e.ID, Reason: fmt.Sprintf("row %d was changed after it was recorded", e.ID)}
	}
	w.prevID, w.prevHash = e.ID, e.Hash
	return nil
}

// Checked is how many rows Next has seen.
func (w *ChainWalk) Checked() int64 { return w.checked }
