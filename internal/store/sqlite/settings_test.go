package sqlite

import (
	"context"
	"database/sql"
	"errors"
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

// isLocked knows a real BUSY from the driver by its code, and nothing else.
func TestIsLockedByDriverCode(t *testing.T) {
	st := open(t)
	ctx := context.Background()
	other, err := sql.Open("sqlite", "file:"+st.Path()+"?_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	tx, err := st.db.BeginTx(ctx, nil) // _txlock=immediate: takes the write lock
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO settings(key, value) VALUES('a', 'b')"); err != nil {
		t.Fatal(err)
	}
	_, err = other.ExecContext(ctx, "INSERT INTO settings(key, value) VALUES('c', 'd')")
	if err == nil || !isLocked(err) || !isLocked(fmt.Errorf("wrapped: %w", err)) {
		t.Fatalf("a write under another's lock: %v, isLocked %v", err, err != nil && isLocked(err))
	}
	_, err = other.ExecContext(ctx, "SELEC nothing")
	if err == nil || isLocked(err) || isLocked(errors.New("database is locked")) {
		t.Errorf("not a lock: %v", err)
	}
}
