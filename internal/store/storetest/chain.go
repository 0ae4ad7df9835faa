package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// Chain walks the audit chain of a store through the pages the API reads
// (store.RecordReader.EventsPage) and returns how many rows it checked and
// the first break, nil when the chain holds. A shared store keeps every
// row (retention runs on the local stores), so the chain starts at row 1.
func Chain(t testing.TB, st store.RecordReader) (int64, *store.ChainBreak) {
	t.Helper()
	walk := store.NewChainWalk("")
	for after := int64(0); ; {
		page, err := st.EventsPage(ctx, after, "", time.Time{}, 500)
		if err != nil {
			t.Fatal(err)
		}
		for i := range page {
			if brk := walk.Next(&page[i]); brk != nil {
				return walk.Checked(), brk
			}
		}
		if len(page) < 500 {
			return walk.Checked(), nil
		}
		after = page[len(page)-1].ID
	}
}

// testImportedChain: events shipped from several machines, in batches and
// again after a lost answer, make one chain with each row once; a row
// changed afterwards breaks it.
func testImportedChain(t *testing.T, b SharedBackend) {
	st := b.fresh(t)
	base := time.Date(2026, 11, 4, 8, 0, 0, 0, time.UTC)
	batch := func(origin string, from, n int) []store.Event {
		var evs []store.Event
		for i := from; i < from+n; i++ {
			evs = append(evs, store.Event{ID: int64(i), Time: base.Add(time.Duration(i) * time.Second), SessionID: origin + "-s",
				Event: "PreToolUse", Tool: "Bash", Reason: fmt.Sprint(origin, i), Raw: []byte(`{"n":1}`)})
		}
		return evs
	}
	for _, c := range []struct {
		origin   string
		from, n  int
		inserted int
	}{
		{"laptop", 1, 3, 3},
		{"server", 1, 2, 2},
		{"laptop", 2, 4, 2}, // 2 and 3 again: the shipper resends after a lost answer
		{"server", 1, 2, 0},
	} {
		got, err := st.ImportEvents(ctx, c.origin, batch(c.origin, c.from, c.n))
		if err != nil || got != c.inserted {
			t.Fatalf("import %s %d..%d: %d rows %v, want %d", c.origin, c.from, c.from+c.n-1, got, err, c.inserted)
		}
	}
	if n, brk := Chain(t, st); n != 7 || brk != nil {
		t.Fatalf("chain of 7 shipped rows: %d checked, break %+v", n, brk)
	}
	b.Exec(t, st, "UPDATE events SET reason = 'edited' WHERE id = 4")
	if _, brk := Chain(t, st); brk == nil || brk.ID != 4 {
		t.Fatalf("a changed row: break %+v, want at row 4", brk)
	}
}
