package lifecycle

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store/sqlite"
)

func TestThresholdOncePerSession(t *testing.T) {
	ctx := context.Background()
	t.Setenv("WARDEN_HOME", t.TempDir())
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var won atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := ClaimThreshold(ctx, st, "s1", 74, time.Now())
			if err != nil {
				t.Error(err)
			}
			if ok {
				won.Add(1)
			}
		}()
	}
	wg.Wait()
	if won.Load() != 1 || !ThresholdFired(ctx, st, "s1") {
		t.Fatalf("claims won: %d", won.Load())
	}
	if ok, _ := ClaimThreshold(ctx, st, "s2", 80, time.Now()); !ok {
		t.Error("a new session must fire again")
	}
	if err := ClearThreshold(ctx, st, "s1"); err != nil || ThresholdFired(ctx, st, "s1") {
		t.Fatalf("clear: %v", err)
	}
	if ok, _ := ClaimThreshold(ctx, st, "s1", 75, time.Now()); !ok {
		t.Error("after SessionStart cleared the mark it fires again")
	}
	if ok, _ := ClaimThreshold(ctx, nil, "s1", 75, time.Now()); ok {
		t.Error("no store: no claim")
	}
}
