package postgres

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// TestVerifyChainAcrossPages: the walk reads the chain a page at a time;
// rows on either side of a page's end link up, and a changed row in a
// later page is found where it is.
func TestVerifyChainAcrossPages(t *testing.T) {
	st := open(t)
	ctx := context.Background()
	base := time.Date(2026, 11, 7, 0, 0, 0, 0, time.UTC)
	var evs []store.Event
	for i := range 10 {
		evs = append(evs, store.Event{ID: int64(i + 1), Time: base.Add(time.Duration(i) * time.Second), SessionID: "s", Event: "Stop"})
	}
	if n, err := st.ImportEvents(ctx, "laptop", evs); err != nil || n != 10 {
		t.Fatalf("import: %d, %v", n, err)
	}
	for _, page := range []int{1, 3, 5, 10, 11} {
		if n, brk, err := st.verifyChain(ctx, page); n != 10 || brk != nil || err != nil {
			t.Errorf("page %d: %d rows, %+v, %v; want 10 intact", page, n, brk, err)
		}
	}
	if _, err := st.pool.Exec(ctx, "UPDATE events SET reason = 'edited' WHERE id = 8"); err != nil {
		t.Fatal(err)
	}
	for _, page := range []int{3, 7, 8} {
		_, brk, err := st.verifyChain(ctx, page)
		if err != nil || brk == nil || brk.ID != 8 {
			t.Errorf("page %d: break %s, %v; want row 8", page, fmt.Sprint(brk), err)
		}
	}
}
