package pace

import (
	"encoding/json"
	"sync"

	"github.com/warden-dev/warden/internal/pace/quota"
)

// lastDecoded is the newest stored decision's detail as last decoded.
// Every PostToolUse within DecisionTTL reads the same stored decision and
// decoding its JSON was a third of Current's CPU in a keeper (reflection
// over a dozen nested fields); the same bytes decode to the same Record,
// so a resident process decodes each stored decision once. Keyed by the
// bytes themselves: a new decision, or one edited in the store, misses.
var lastDecoded struct {
	mu     sync.Mutex
	detail string
	rec    Record
}

// decodeRecord is json.Unmarshal(detail, rec) through lastDecoded. The
// Record it returns shares nothing with the cached one, so a caller may
// change it.
func decodeRecord(detail []byte) (*Record, error) {
	lastDecoded.mu.Lock()
	if lastDecoded.detail != "" && lastDecoded.detail == string(detail) {
		r := lastDecoded.rec.clone()
		lastDecoded.mu.Unlock()
		return r, nil
	}
	lastDecoded.mu.Unlock()
	var r Record
	if err := json.Unmarshal(detail, &r); err != nil {
		return nil, err
	}
	lastDecoded.mu.Lock()
	lastDecoded.detail, lastDecoded.rec = string(detail), *r.clone()
	lastDecoded.mu.Unlock()
	return &r, nil
}

// clone is a deep copy of r: every pointer a decoded Record can hold
// (Trace is never decoded: it is not in the JSON) points to a copy.
func (r *Record) clone() *Record {
	c := *r
	if r.Figures != nil {
		f := *r.Figures
		for _, w := range []*quota.Window{&f.FiveHour, &f.SevenDay} {
			if w.Util != nil {
				u := *w.Util
				w.Util = &u
			}
			if w.ResetsAt != nil {
				t := *w.ResetsAt
				w.ResetsAt = &t
			}
		}
		c.Figures = &f
	}
	if r.Decision.ConstrainedWindow != nil {
		w := *r.Decision.ConstrainedWindow
		c.Decision.ConstrainedWindow = &w
	}
	if r.Decision.Projection != nil {
		p := *r.Decision.Projection
		c.Decision.Projection = &p
	}
	if r.Decision.Trace != nil {
		t := *r.Decision.Trace
		c.Decision.Trace = &t
	}
	return &c
}
