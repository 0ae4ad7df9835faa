package usage_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/usage"
	"github.com/warden-dev/warden/internal/usage/corpus"
)

// benchCorpus is $WARDEN_BENCH_CORPUS (a config dir holding projects/, e.g.
// the bench/usage corpus) or a generated 60 MB corpus with many files.
func benchCorpus(b *testing.B) string {
	if d := os.Getenv("WARDEN_BENCH_CORPUS"); d != "" {
		return d
	}
	dir := b.TempDir()
	if _, err := corpus.Generate(dir, corpus.Config{Seed: 42, Projects: 8, Sessions: 10, Turns: 200, Pad: 400, TargetBytes: 60 << 20}); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkWarmBlocks is `warden usage blocks` with the cache warm:
// "unchanged" with nothing new (the snapshot), "append" after one
// response (three streamed copies) is appended to a session.
func BenchmarkWarmBlocks(b *testing.B) {
	dir := benchCorpus(b)
	ctx := context.Background()
	st := openStore(b)
	opt := usage.Options{Dirs: []string{dir}}
	if _, _, err := usage.LoadBlocks(ctx, st, opt, 0); err != nil {
		b.Fatal(err)
	}
	b.Run("unchanged", func(b *testing.B) {
		for b.Loop() {
			if _, stats, err := usage.LoadBlocks(ctx, st, opt, 0); err != nil || !stats.Snapshot {
				b.Fatalf("%v %+v", err, stats)
			}
		}
	})
	b.Run("append", func(b *testing.B) {
		p := filepath.Join(dir, "projects", "-bench-append", "bench-session.jsonl")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { os.RemoveAll(filepath.Dir(p)) })
		at := time.Now().Add(-time.Hour)
		n := 0
		for b.Loop() {
			b.StopTimer()
			n++
			at = at.Add(time.Second)
			f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				b.Fatal(err)
			}
			for k := 1; k <= 3; k++ {
				fmt.Fprint(f, response("bench-session", fmt.Sprint("bench", n), at, 5, 7*k))
			}
			f.Close()
			b.StartTimer()
			if _, stats, err := usage.LoadBlocks(ctx, st, opt, 0); err != nil || (n > 1 && !stats.Incremental) {
				b.Fatalf("%v %+v", err, stats)
			}
		}
	})
}

// BenchmarkColdBlocks is `warden usage blocks` with an empty cache:
// "nocache" parses every file and builds the blocks without a store,
// "store" is the whole store path with an empty store (parse, blocks,
// writing the per-file cache and the blocks state).
func BenchmarkColdBlocks(b *testing.B) {
	dir := benchCorpus(b)
	ctx := context.Background()
	files, err := usage.Discover([]string{dir})
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, f := range files {
		size += f.Size
	}
	b.Run("nocache", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			d, err := usage.Load(ctx, usage.Options{Files: files})
			if err != nil {
				b.Fatal(err)
			}
			usage.Blocks(d, d.Select(usage.Filter{}), usage.BlockOptions{})
		}
	})
	b.Run("store", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			b.StopTimer()
			st := openStore(b)
			b.StartTimer()
			if _, stats, err := usage.LoadBlocks(ctx, st, usage.Options{Files: files}, 0); err != nil || stats.Incremental || stats.Snapshot {
				b.Fatalf("%v %+v", err, stats)
			}
			b.StopTimer()
			st.Close()
			b.StartTimer()
		}
	})
}
