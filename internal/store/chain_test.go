package store

import (
	"testing"
	"time"
)

// TestChainHashStable pins the audit chain's hash of rows with every
// field set, with the file and task fields unset, and with none set:
// stored rows are verified against it, so a faster ChainHash must give
// the same bytes.
func TestChainHashStable(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	full := &Event{ID: 42, Time: time.UnixMicro(1_764_460_000_123_456), SessionID: "s-1", Event: "PreToolUse",
		Harness: "claude", Tool: "Bash", ToolUseID: "tu", AgentID: "ag", Cwd: "/p", Path: "/p/f", Decision: "deny",
		Rule: "r", Mode: "enforce", Reason: "why: ünïcode", Error: "e", LatencyUS: 1234, SleptMS: 5,
		DurationMS: n(77), Raw: []byte(`{"a":1}`), HashBefore: "hb", HashAfter: "ha", LinesAdded: n(3),
		LinesRemoved: nil, TaskID: "t-9", Detail: "d"}
	plain := &Event{ID: 1, Time: time.UnixMicro(0), Event: "Stop"}
	task := &Event{ID: 7, Time: time.UnixMicro(5), Event: "PostToolUse", TaskID: "t", Raw: []byte("{}")}
	for _, c := range []struct {
		name, prev string
		ev         *Event
		want       string
	}{
		{"full", "abc", full, "63955651d99196f106fdc7d3afb38f35d7670e62d957a11ffb9fc9199b56229b"},
		{"task", "x", task, "8ad0b65304278151d78e8ec989840e86a89a6b6cdf7df2a0ed406742726b6fdf"},
		{"plain", "", plain, "fe8eb7f37ca48ee2888a5b3f81726060a43c39bb93bb83dd8f840abc36558e7b"},
	} {
		if got := ChainHash(c.prev, c.ev); got != c.want {
			t.Errorf("%s: ChainHash = %s, want %s", c.name, got, c.want)
		}
	}
}
