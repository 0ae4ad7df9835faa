package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// Alone copies the file at path (a built binary) into a new temp directory
// with nothing beside it, and returns the copy's path: a `warden` without
// its warden-core has nowhere to run a hook but the keeper or the daemon,
// so an answer proves they gave it.
func Alone(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lone := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(lone, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return lone
}
