package sqlite

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// Of callers racing to claim one key, on separate connections, exactly
// one wins; an emptied key can be claimed again, a deleted one too.
func TestClaimSettingHasOneWinner(t *testing.T) {
	st := open(t)
	ctx := context.Background()
	var wins atomic.Int32
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			ok, err := st.ClaimSetting(ctx, "k", fmt.Sprint("v", i))
			if err != nil {
				t.Error(err)
			}
			if ok {
				wins.Add(1)
			}
		})
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d winners, want 1", wins.Load())
	}
	if ok, _ := st.ClaimSetting(ctx, "k", "again"); ok {
		t.Error("claimed a key that is set")
	}
	if err := st.SetSetting(ctx, "k", ""); err != nil {
		t.Fatal(err)
	}
	if ok, _ := st.ClaimSetting(ctx, "k", "again"); !ok {
		t.Error("could not claim an emptied key")
	}
	if err := st.DeleteSetting(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := st.Setting(ctx, "k"); ok {
		t.Error("DeleteSetting left the key")
	}
	if ok, _ := st.ClaimSetting(ctx, "k", "third"); !ok {
		t.Error("could not claim a deleted key")
	}
}
