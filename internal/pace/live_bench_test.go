package pace

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/store"
)

// The hot path of every PostToolUse: the cached decision (two indexed
// reads) and a recompute (figures, active sessions, one insert).
func BenchmarkCurrent(b *testing.B) {
	ctx := context.Background()
	st := openStoreB(b)
	reset := thuNoon.Add(4 * time.Hour)
	st.AddSnapshot(ctx, &quota.Snapshot{Time: thuNoon, Source: quota.SourceStatusline, FiveHour: quota.Window{Util: fptr(20.5), ResetsAt: &reset}})
	for i := 0; i < 2000; i++ {
		st.RecordHook(ctx, &store.Event{Time: thuNoon.Add(-time.Duration(i) * time.Second), SessionID: fmt.Sprint("s", i%4), Event: "PostToolUse"}, nil)
	}
	s := DefaultSettings()
	Recompute(ctx, st, s, "s0", thuNoon)
	b.Run("cached", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, fresh, err := Current(ctx, st, s, "s0", thuNoon.Add(time.Second)); err != nil || fresh {
				b.Fatal(err, fresh)
			}
		}
	})
	b.Run("recompute", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, _, err := Recompute(ctx, st, s, "s0", thuNoon.Add(time.Second)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
