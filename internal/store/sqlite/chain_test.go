package sqlite

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

func seed(t *testing.T, st *Store, n int, start time.Time) {
	t.Helper()
	for i := 0; i < n; i++ {
		ev := &store.Event{Time: start.Add(time.Duration(i) * time.Hour), SessionID: "s", Event: "PreToolUse", Tool: "Bash", Reason: "r"}
		if err := st.RecordHook(context.Background(), ev, nil); err != nil {
			t.Fatal(err)
		}
	}
}

func TestChainIntactAndBreaks(t *testing.T) {
	start := time.Now().Add(-10 * time.Hour)
	tests := []struct {
		name    string
		tamper  string
		breakAt int64
		reason  string
	}{
		{"intact", "", 0, ""},
		{"row deleted", "DELETE FROM events WHERE id = 4", 5, "missing"},
		{"row changed", "UPDATE events SET decision = 'allow', reason = '' WHERE id = 3", 3, "changed"},
		{"row replaced with recomputed hash of its own", "UPDATE events SET prev_hash = 'x' WHERE id = 6", 6, "link"},
		{"last row deleted and re-added", "DELETE FROM events WHERE id = 2; INSERT INTO events(id, ts_us, event, prev_hash, hash) VALUES (2, 0, 'Stop', '', '')", 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := open(t)
			seed(t, st, 8, start)
			if tt.tamper != "" {
				if _, err := st.db.Exec(tt.tamper); err != nil {
					t.Fatal(err)
				}
			}
			n, brk, err := st.VerifyChain(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if tt.breakAt == 0 {
				if brk != nil || n != 8 {
					t.Fatalf("intact chain: %d rows, break %+v", n, brk)
				}
				return
			}
			if brk == nil || brk.ID != tt.breakAt || !strings.Contains(brk.Reason, tt.reason) {
				t.Fatalf("want a break at %d (%s), got %+v", tt.breakAt, tt.reason, brk)
			}
		})
	}
}

func TestChainSurvivesRetention(t *testing.T) {
	st := open(t)
	now := time.Now()
	seed(t, st, 5, now.Add(-100*24*time.Hour))
	seed(t, st, 3, now.Add(-time.Hour))
	ne, _, err := st.Prune(context.Background(), now.AddDate(0, 0, -60))
	if err != nil || ne != 5 {
		t.Fatalf("pruned %d (%v)", ne, err)
	}
	n, brk, err := st.VerifyChain(context.Background())
	if err != nil || brk != nil || n != 3 {
		t.Fatalf("after retention: %d rows, %+v, %v", n, brk, err)
	}
	// New rows keep chaining from the tip, ids keep growing.
	seed(t, st, 1, now)
	evs, _ := st.Events(context.Background(), store.Filter{})
	if evs[len(evs)-1].ID != 9 {
		t.Errorf("id after retention = %d, want 9", evs[len(evs)-1].ID)
	}
	if _, brk, _ := st.VerifyChain(context.Background()); brk != nil {
		t.Errorf("break after new row: %+v", brk)
	}
	// Deleting the oldest remaining row is still caught via the anchor.
	st.db.Exec("DELETE FROM events WHERE id = 6")
	if _, brk, _ := st.VerifyChain(context.Background()); brk == nil || brk.ID != 7 {
		t.Errorf("deleting the first row after the anchor: %+v", brk)
	}
}

func TestPruneEverythingKeepsTheAnchor(t *testing.T) {
	st := open(t)
	seed(t, st, 3, time.Now().AddDate(0, 0, -90))
	st.Prune(context.Background(), time.Now().AddDate(0, 0, -60))
	seed(t, st, 2, time.Now())
	evs, _ := st.Events(context.Background(), store.Filter{})
	if len(evs) != 2 || evs[0].ID != 4 {
		t.Fatalf("rows after full prune: %+v", evs)
	}
	if _, brk, _ := st.VerifyChain(context.Background()); brk != nil {
		t.Errorf("break: %+v", brk)
	}
}
