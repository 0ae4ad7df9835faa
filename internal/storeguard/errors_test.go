//go:build linux

package storeguard

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/task"
)

// A real SQLite write on a full disk (this process's file-size limit at
// one byte: the WAL append fails with EFBIG, Go ignoring SIGXFSZ) is a
// storage fault; a conflict from the same store is not.
func TestRealSQLiteWriteFailureIsAStorageFault(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = st.UpdateTask(ctx, "nonesuch", task.Change{To: task.Done})
	if err == nil || IsStorageFault(err) {
		t.Fatalf("a missing task: %v, storage fault %v", err, IsStorageFault(err))
	}
	var was syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 1, Max: was.Max}); err != nil {
		t.Fatal(err)
	}
	err = st.SetSetting(ctx, "k", "a value that needs a page")
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
		t.Fatal(err)
	}
	if err == nil || !IsStorageFault(err) {
		t.Fatalf("a write on a full disk: %v, storage fault %v", err, IsStorageFault(err))
	}
}

// PostgreSQL's disk-full, I/O and corruption classes are storage faults;
// a unique violation or a serialization failure is not.
func TestPostgresStorageFaultClasses(t *testing.T) {
	for code, want := range map[string]bool{"53100": true, "58030": true, "XX001": true, "25006": true, "23505": false, "40001": false} {
		err := fmt.Errorf("insert: %w", &pgconn.PgError{Code: code})
		if got := IsStorageFault(err); got != want {
			t.Errorf("SQLSTATE %s: storage fault %v, want %v", code, got, want)
		}
	}
	if IsStorageFault(errors.New("no")) || !IsStorageFault(fmt.Errorf("w: %w", syscall.EROFS)) {
		t.Error("plain errors")
	}
}
