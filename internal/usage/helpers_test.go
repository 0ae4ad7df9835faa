package usage_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/warden-dev/warden/internal/usage"
)

// Helpers shared by the cache tests (every OS) and the ccusage comparisons
// (unix only).

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func load(t *testing.T, dir string, c usage.Cache) *usage.Data {
	t.Helper()
	d, err := usage.Load(context.Background(), usage.Options{Dirs: []string{dir}, Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	return d
}
