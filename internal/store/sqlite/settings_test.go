package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"testing"
)

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
