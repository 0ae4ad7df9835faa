package sqlite

import (
	"context"
	"testing"

	"github.com/warden-dev/warden/internal/store"
)

// TestSettingsSnapshot: the settings a hook preloads (one query) answer
// its reads; a write through the store drops the key so the hook reads
// what it wrote; other contexts never see the snapshot.
func TestSettingsSnapshot(t *testing.T) {
	st := open(t)
	bg := context.Background()
	if err := st.SetSetting(bg, "enabled", "false"); err != nil {
		t.Fatal(err)
	}
	st.SetSetting(bg, "unrelated", "x")
	keys := []string{"enabled", "safemode"}
	vals, err := st.Settings(bg, keys)
	if err != nil || len(vals) != 1 || vals["enabled"] != "false" {
		t.Fatalf("Settings: %v %v", vals, err)
	}
	ctx := store.WithSettings(bg, keys, vals)

	// Another writer changes it: the hook keeps its snapshot.
	other := open2(t, st.Path())
	other.SetSetting(bg, "enabled", "true")
	if v, ok, err := st.Setting(ctx, "enabled"); v != "false" || !ok || err != nil {
		t.Fatalf("snapshot read: %q %v %v", v, ok, err)
	}
	if _, ok, _ := st.Setting(ctx, "safemode"); ok {
		t.Fatal("a key not set reads as set")
	}
	if v, _, _ := st.Setting(bg, "enabled"); v != "true" {
		t.Fatalf("outside the snapshot: %q", v)
	}
	// The hook writes a key: it reads its own write afterwards.
	if err := st.SetSetting(ctx, "safemode", "on"); err != nil {
		t.Fatal(err)
	}
	if v, ok, _ := st.Setting(ctx, "safemode"); v != "on" || !ok {
		t.Fatalf("after its own write: %q %v", v, ok)
	}
	if err := st.DeleteSetting(ctx, "enabled"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := st.Setting(ctx, "enabled"); ok {
		t.Fatal("a deleted key still answers from the snapshot")
	}
	if v, ok, _ := st.Setting(ctx, "unrelated"); v != "x" || !ok {
		t.Fatalf("a key outside the snapshot: %q %v", v, ok)
	}
}

func open2(t *testing.T, path string) *Store {
	t.Helper()
	st, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
