package usage_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/warden-dev/warden/internal/usage"
	"github.com/warden-dev/warden/internal/usage/corpus"
)

type memCache struct {
	m     map[string]usage.CachedFile
	saves int
}

func (c *memCache) LoadUsageCache(context.Context) (map[string]usage.CachedFile, error) {
	out := map[string]usage.CachedFile{}
	for k, v := range c.m {
		out[k] = v
	}
	return out, nil
}

func (c *memCache) SaveUsageCache(_ context.Context, upd []usage.CachedFile, remove []string) error {
	c.saves++
	for _, u := range upd {
		c.m[u.Path] = u
	}
	for _, p := range remove {
		delete(c.m, p)
	}
	return nil
}

// TestCacheIncremental: a warm run reads nothing, an append is read from
// the cached offset, and every run reports what a cold run reports.
func TestCacheIncremental(t *testing.T) {
	dir := t.TempDir()
	if _, err := corpus.Generate(dir, corpus.Config{Seed: 7, Projects: 2, Sessions: 3, Turns: 20}); err != nil {
		t.Fatal(err)
	}
	c := &memCache{m: map[string]usage.CachedFile{}}
	report := func(d *usage.Data) []byte {
		return mustJSON(t, usage.Sessions(d, d.Select(usage.Filter{})))
	}
	cold := load(t, dir, nil)
	first := load(t, dir, c)
	if !bytes.Equal(report(cold), report(first)) {
		t.Fatal("first cached run differs from a cold run")
	}
	if len(c.m) != len(cold.Files) {
		t.Fatalf("cache holds %d files, corpus has %d", len(c.m), len(cold.Files))
	}
	warm := load(t, dir, c)
	if !bytes.Equal(report(cold), report(warm)) {
		t.Fatal("warm run differs from a cold run")
	}
	// Only unterminated last lines are read again.
	var tails int64
	for _, f := range cold.Files {
		if cf := c.m[f.Path]; cf.Offset < f.Size {
			tails += f.Size - cf.Offset
		}
	}
	if warm.Stats.BytesRead != tails {
		t.Errorf("warm run read %d bytes, want only the %d bytes of unterminated last lines", warm.Stats.BytesRead, tails)
	}

	// Append a response (and a duplicate of it) to one file.
	files := cold.Files
	sort.Slice(files, func(i, j int) bool { return files[i].Size < files[j].Size })
	target := files[len(files)-1].Path
	cf := c.m[target]
	body, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	body = body[:cf.Offset] // drop an unterminated tail so the append is well-formed
	line := `{"type":"assistant","sessionId":"x","requestId":"req_appended","timestamp":"2026-03-30T10:00:00.000Z","version":"2.1.330","message":{"id":"msg_appended","model":"claude-opus-4-5-20251101","usage":{"input_tokens":5,"output_tokens":7,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}` + "\n"
	body = append(body, line+line...)
	if err := os.WriteFile(target, body, 0o644); err != nil {
		t.Fatal(err)
	}
	inc := load(t, dir, c)
	if inc.Stats.BytesRead > int64(2*len(line))+tails {
		t.Errorf("incremental run read %d bytes, want about %d", inc.Stats.BytesRead, 2*len(line))
	}
	cold2 := load(t, dir, nil)
	if !bytes.Equal(report(cold2), report(inc)) {
		t.Fatal("incremental run differs from a cold run after an append")
	}
	if len(cold2.Entries) != len(cold.Entries)+1 {
		t.Errorf("entries %d, want %d (the appended response once)", len(cold2.Entries), len(cold.Entries)+1)
	}
	// A file that shrank (rewritten) is read again in full; a removed file
	// leaves the cache.
	if err := os.WriteFile(target, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	other := files[0].Path
	if err := os.Remove(other); err != nil {
		t.Fatal(err)
	}
	inc = load(t, dir, c)
	cold3 := load(t, dir, nil)
	if !bytes.Equal(report(cold3), report(inc)) {
		t.Fatal("run after a rewrite and a removal differs from a cold run")
	}
	if _, ok := c.m[other]; ok {
		t.Error("removed file still cached")
	}
	_ = filepath.Base
}
