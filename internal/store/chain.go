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
	h := sha256.New()
	field := func(s string) {
		h.Write([]byte(strconv.Itoa(len(s))))
		h.Write([]byte{':'})
		h.Write([]byte(s))
	}
	field(prev)
	field(strconv.FormatInt(e.ID, 10))
	field(strconv.FormatInt(e.Time.UnixMicro(), 10))
	for _, s := range []string{e.SessionID, e.Event, e.Harness, e.Tool, e.ToolUseID, e.AgentID, e.Cwd,
		e.Path, e.Decision, e.Rule, e.Mode, e.Reason, e.Error} {
		field(s)
	}
	field(strconv.FormatInt(e.LatencyUS, 10))
	field(strconv.FormatInt(e.SleptMS, 10))
	if e.DurationMS != nil {
		field(strconv.FormatInt(*e.DurationMS, 10))
	} else {
		field("null")
	}
	field(string(e.Raw))
	// The file fields came later (migration 0020): hashed only when set, so
	// the rows written before them keep their hashes.
	if e.HashBefore != "" || e.HashAfter != "" || e.LinesAdded != nil || e.LinesRemoved != nil {
		field("file")
		field(e.HashBefore)
		field(e.HashAfter)
		for _, n := range []*int64{e.LinesAdded, e.LinesRemoved} {
			if n != nil {
				field(strconv.FormatInt(*n, 10))
			} else {
				field("null")
			}
		}
	}
	// Added later: hashed only when set, so rows written before these
	// columns existed keep their hashes.
	if e.TaskID != "" || e.Detail != "" {
		field("task")
		field(e.TaskID)
		field(e.Detail)
	}
	return hex.EncodeToString(h.Sum(nil))
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
