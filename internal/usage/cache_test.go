package usage_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/usage"
	"github.com/warden-dev/warden/internal/usage/corpus"
)

// openStore opens a real store file in a temporary directory.
func openStore(t testing.TB) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func loadStats(t *testing.T, dir string, c usage.Cache) *usage.Data {
	t.Helper()
	d, err := usage.Load(context.Background(), usage.Options{Dirs: []string{dir}, Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func loadBlocks(t *testing.T, dir string, st *sqlite.Store) ([]usage.BlockAgg, usage.Stats) {
	t.Helper()
	aggs, stats, err := usage.LoadBlocks(context.Background(), st, usage.Options{Dirs: []string{dir}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return aggs, stats
}

// reports renders what every report is built from: the session report and
// the blocks of all entries.
func reports(t *testing.T, d *usage.Data) string {
	t.Helper()
	all := d.Select(usage.Filter{})
	return string(mustJSON(t, usage.Sessions(d, all))) + "\n" + string(mustJSON(t, usage.BuildBlocks(d, all, 0)))
}

// coldBlocks is BuildBlocks of a run without a cache.
func coldBlocks(t *testing.T, dir string) []byte {
	d := load(t, dir, nil)
	return mustJSON(t, usage.BuildBlocks(d, d.Select(usage.Filter{}), 0))
}

// checkCached compares a cached run (Load through the store, and
// LoadBlocks) with a fresh run without a cache on the same files.
func checkCached(t *testing.T, dir string, st *sqlite.Store, what string) (*usage.Data, usage.Stats) {
	t.Helper()
	cold := load(t, dir, nil)
	aggs, bstats := loadBlocks(t, dir, st)
	if got, want := mustJSON(t, aggs), coldBlocks(t, dir); !bytes.Equal(got, want) {
		t.Fatalf("%s: LoadBlocks differs from a run without cache (stats %+v):\n%s", what, bstats, firstDiff(got, want))
	}
	warm := loadStats(t, dir, usage.StoreCache{St: st})
	if got, want := reports(t, warm), reports(t, cold); got != want {
		t.Fatalf("%s: cached Load differs from a run without cache:\n%s", what, firstDiff([]byte(got), []byte(want)))
	}
	return warm, bstats
}

func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-200)
	return fmt.Sprintf("at byte %d:\n got  …%s\n want …%s", i, a[lo:min(len(a), i+200)], b[lo:min(len(b), i+200)])
}

func genCorpus(t testing.TB, seed uint64) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := corpus.Generate(dir, corpus.Config{Seed: seed, Projects: 2, Sessions: 3, Turns: 30}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// bySize lists the corpus files, largest last.
func bySize(t *testing.T, dir string) []usage.File {
	files, err := usage.Discover([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Size < files[j].Size })
	return files
}

func response(session, id string, at time.Time, in, out int) string {
	return fmt.Sprintf(`{"type":"assistant","sessionId":%q,"requestId":"req_%s","timestamp":%q,"version":"2.1.330","message":{"id":"msg_%s","model":"claude-opus-4-5-20251101","usage":{"input_tokens":%d,"output_tokens":%d,"cache_creation_input_tokens":10,"cache_read_input_tokens":100}}}`+"\n",
		session, id, at.UTC().Format("2006-01-02T15:04:05.000Z"), id, in, out)
}

func appendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// endsWithNewline drops an unterminated last line so appends are
// well-formed lines.
func endsWithNewline(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if i := bytes.LastIndexByte(b, '\n'); i != len(b)-1 {
		if err := os.WriteFile(path, b[:i+1], 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCacheIncremental: a warm run reads only unterminated last lines and
// reports what a run without cache reports.
func TestCacheIncremental(t *testing.T) {
	dir := genCorpus(t, 7)
	st := openStore(t)
	cold := load(t, dir, nil)
	first, _ := checkCached(t, dir, st, "first run")
	if first.Stats.Files != len(cold.Files) {
		t.Fatalf("files %d, want %d", first.Stats.Files, len(cold.Files))
	}
	rows, err := st.UsageFiles(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(cold.Files) {
		t.Fatalf("cache holds %d files, corpus has %d", len(rows), len(cold.Files))
	}
	var tails int64
	for _, r := range rows {
		for _, f := range cold.Files {
			if f.Path == r.Path && r.Offset < f.Size {
				tails += f.Size - r.Offset
			}
		}
		if len(r.Prefix) == 0 {
			t.Errorf("%s: no prefix print", r.Path)
		}
	}
	warm, stats := checkCached(t, dir, st, "warm run")
	if warm.Stats.BytesRead != tails {
		t.Errorf("warm run read %d bytes, want only the %d bytes of unterminated last lines", warm.Stats.BytesRead, tails)
	}
	if !stats.Snapshot {
		t.Errorf("LoadBlocks on an unchanged tree: %+v, want the snapshot", stats)
	}
}

// TestCacheAppend: appended lines are read from the cached offset, and
// LoadBlocks adds them to the last block without a full load.
func TestCacheAppend(t *testing.T) {
	dir := genCorpus(t, 11)
	st := openStore(t)
	files := bySize(t, dir)
	target := files[len(files)-1].Path
	endsWithNewline(t, target)
	checkCached(t, dir, st, "first run")
	last := load(t, dir, nil).Entries
	at := time.UnixMilli(last[len(last)-1].TS).Add(time.Minute)
	add := response("x", "appended", at, 5, 7)
	appendFile(t, target, add+add) // a response and its repeat
	d, stats := checkCached(t, dir, st, "after an append")
	if !stats.Incremental {
		t.Errorf("LoadBlocks after an append: %+v, want incremental", stats)
	}
	if stats.BytesRead != int64(2*len(add)) {
		t.Errorf("LoadBlocks read %d bytes, want %d", stats.BytesRead, 2*len(add))
	}
	if len(d.Entries) != len(last)+1 {
		t.Errorf("entries %d, want %d (the appended response once)", len(d.Entries), len(last)+1)
	}
	// A later copy with more tokens replaces it; another append opens a new
	// block after a gap.
	appendFile(t, target, response("x", "appended", at.Add(time.Second), 5, 70))
	if _, stats = checkCached(t, dir, st, "after a larger copy"); !stats.Incremental {
		t.Errorf("LoadBlocks after a larger copy: %+v, want incremental", stats)
	}
	appendFile(t, target, response("x", "later", at.Add(9*time.Hour), 1, 2))
	if _, stats = checkCached(t, dir, st, "after a gap"); !stats.Incremental {
		t.Errorf("LoadBlocks after a gap: %+v, want incremental", stats)
	}
	appendFile(t, target, response("x", "later2", at.Add(9*time.Hour+time.Minute), 1, 2))
	if _, stats = checkCached(t, dir, st, "after the gap"); !stats.Incremental {
		t.Errorf("LoadBlocks after the gap: %+v, want incremental", stats)
	}
}

// TestCacheRewriteLarger: a file truncated and written again with other
// content, larger than before, is read again in full (its cached prefix no
// longer matches) instead of from the cached offset.
func TestCacheRewriteLarger(t *testing.T) {
	dir := genCorpus(t, 12)
	st := openStore(t)
	files := bySize(t, dir)
	checkCached(t, dir, st, "first run")
	small, big := files[0], files[len(files)-1]
	body, err := os.ReadFile(big.Path)
	if err != nil {
		t.Fatal(err)
	}
	// Other content, same session names, larger than the cached offset.
	body = bytes.ReplaceAll(body, []byte(`"input_tokens":`), []byte(`"input_tokens":1`))
	if int64(len(body)) <= small.Size {
		t.Fatal("corpus too small for the test")
	}
	if err := os.WriteFile(small.Path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	d, stats := checkCached(t, dir, st, "after a rewrite")
	if stats.Incremental {
		t.Errorf("LoadBlocks after a rewrite: %+v, want a full load", stats)
	}
	_ = d
	// Same again through Load alone (the blocks run above already updated
	// the rows): rewrite once more and count the reparse.
	body = bytes.ReplaceAll(body, []byte(`"output_tokens":`), []byte(`"output_tokens":2`))
	if err := os.WriteFile(small.Path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	warm := loadStats(t, dir, usage.StoreCache{St: st})
	if warm.Stats.Reparsed != 1 {
		t.Errorf("Reparsed = %d, want 1", warm.Stats.Reparsed)
	}
	if got, want := reports(t, warm), reports(t, load(t, dir, nil)); got != want {
		t.Fatalf("cached Load after a second rewrite differs:\n%s", firstDiff([]byte(got), []byte(want)))
	}
	checkCached(t, dir, st, "after the second rewrite")
}

// TestCacheShrink: a file that shrank is read again in full.
func TestCacheShrink(t *testing.T) {
	dir := genCorpus(t, 13)
	st := openStore(t)
	files := bySize(t, dir)
	checkCached(t, dir, st, "first run")
	big := files[len(files)-1]
	body, err := os.ReadFile(big.Path)
	if err != nil {
		t.Fatal(err)
	}
	cut := bytes.IndexByte(body[len(body)/2:], '\n') + len(body)/2 + 1
	if err := os.WriteFile(big.Path, body[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stats := checkCached(t, dir, st, "after a shrink"); stats.Incremental {
		t.Errorf("LoadBlocks after a shrink: %+v, want a full load", stats)
	}
	// Shrunk to one foreign line.
	if err := os.WriteFile(big.Path, []byte(response("y", "only", time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC), 1, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	checkCached(t, dir, st, "after a shrink to one line")
}

// TestCacheDelete: a deleted file's entries leave every report and its row
// leaves the cache.
func TestCacheDelete(t *testing.T) {
	dir := genCorpus(t, 14)
	st := openStore(t)
	files := bySize(t, dir)
	checkCached(t, dir, st, "first run")
	gone := files[len(files)-1].Path
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	before := len(load(t, dir, nil).Entries)
	d, stats := checkCached(t, dir, st, "after a delete")
	if stats.Incremental || stats.Snapshot {
		t.Errorf("LoadBlocks after a delete: %+v, want a full load", stats)
	}
	if len(d.Entries) != before {
		t.Errorf("entries %d, want %d", len(d.Entries), before)
	}
	rows, err := st.UsageFiles(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Path == gone {
			t.Error("deleted file still cached")
		}
	}
}

// TestCacheRename: a renamed file counts under its new session name; its
// cached entries are reused (same mtime and prefix print).
func TestCacheRename(t *testing.T) {
	dir := genCorpus(t, 15)
	st := openStore(t)
	files := bySize(t, dir)
	checkCached(t, dir, st, "first run")
	old := files[len(files)-1].Path
	endsWithNewline(t, old)
	checkCached(t, dir, st, "terminated")
	renamed := filepath.Join(filepath.Dir(old), "renamed-session.jsonl")
	if err := os.Rename(old, renamed); err != nil {
		t.Fatal(err)
	}
	warm := loadStats(t, dir, usage.StoreCache{St: st})
	if warm.Stats.BytesRead > 0 {
		t.Errorf("read %d bytes after a rename, want the cached entries reused", warm.Stats.BytesRead)
	}
	if got, want := reports(t, warm), reports(t, load(t, dir, nil)); got != want {
		t.Fatalf("after a rename:\n%s", firstDiff([]byte(got), []byte(want)))
	}
	if !strings.Contains(reports(t, warm), `"sessionId":"renamed-session"`) {
		t.Error("renamed session missing from the session report")
	}
	checkCached(t, dir, st, "after a rename")
}

// TestBlocksStateRandom mutates a corpus at random (appends of new
// responses, larger and smaller copies of recent and old ones, lines older
// than the last block, new files, unterminated lines later completed,
// deletes) and compares LoadBlocks and the cached Load with runs without a
// cache after each step.
func TestBlocksStateRandom(t *testing.T) {
	dir := genCorpus(t, 21)
	st := openStore(t)
	r := rand.New(rand.NewPCG(21, 4))
	checkCached(t, dir, st, "first run")
	var incr int
	n := 0
	for step := 0; step < 60; step++ {
		files := bySize(t, dir)
		f := files[r.IntN(len(files))].Path
		endsWithNewline(t, f)
		d := load(t, dir, nil)
		lastTS := time.UnixMilli(d.Entries[len(d.Entries)-1].TS)
		var what string
		switch k := r.IntN(10); k {
		case 0, 1, 2: // new responses near the end
			what = "new responses"
			for i := 0; i < 1+r.IntN(3); i++ {
				n++
				appendFile(t, f, response("s", fmt.Sprint("n", n), lastTS.Add(time.Duration(r.IntN(40)-5)*time.Minute), 1+r.IntN(9), 1+r.IntN(9)))
			}
		case 3: // after a long gap
			what = "after a gap"
			n++
			appendFile(t, f, response("s", fmt.Sprint("n", n), lastTS.Add(6*time.Hour+time.Duration(r.IntN(60))*time.Minute), 3, 4))
		case 4: // a copy of a recent response, larger or smaller, maybe in another file
			what = "copy of a recent response"
			if n == 0 {
				continue
			}
			id := fmt.Sprint("n", 1+r.IntN(n))
			appendFile(t, f, response("s", id, lastTS.Add(time.Duration(r.IntN(3))*time.Second), r.IntN(20), r.IntN(20)))
		case 5: // a copy of an old corpus response: falls back
			what = "copy of an old response"
			e := d.Entries[r.IntN(len(d.Entries)/2)]
			_ = e
			appendFile(t, f, oldCopy(t, dir, r))
		case 6: // older than the last block
			what = "old line"
			n++
			appendFile(t, f, response("s", fmt.Sprint("n", n), lastTS.Add(-20*time.Hour), 2, 2))
		case 7: // a new file (subagent)
			what = "new file"
			n++
			sub := filepath.Join(filepath.Dir(f), fmt.Sprint("sess", n), "subagents", "agent-1.jsonl")
			if err := os.MkdirAll(filepath.Dir(sub), 0o755); err != nil {
				t.Fatal(err)
			}
			appendFile(t, sub, response("s", fmt.Sprint("n", n), lastTS.Add(time.Minute), 1, 1))
		case 8: // an unterminated complete line, then its newline
			what = "unterminated line"
			n++
			line := response("s", fmt.Sprint("n", n), lastTS.Add(2*time.Minute), 4, 4)
			appendFile(t, f, strings.TrimSuffix(line, "\n"))
			checkCached(t, dir, st, fmt.Sprintf("step %d (%s, open)", step, what))
			appendFile(t, f, "\n")
		case 9: // a delete
			what = "delete"
			if len(files) < 4 {
				continue
			}
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
		}
		_, stats := checkCached(t, dir, st, fmt.Sprintf("step %d (%s)", step, what))
		if stats.Incremental {
			incr++
		}
	}
	if incr < 15 {
		t.Errorf("only %d of 60 steps were incremental", incr)
	}
}

// oldCopy returns a line of the corpus from its first half in time, with
// more output tokens (so it would win).
func oldCopy(t *testing.T, dir string, r *rand.Rand) string {
	files := bySize(t, dir)
	for tries := 0; tries < 50; tries++ {
		b, err := os.ReadFile(files[r.IntN(len(files))].Path)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Split(b, []byte("\n"))
		for _, l := range lines[:len(lines)/2] {
			if !bytes.Contains(l, []byte(`"usage":{`)) || !bytes.Contains(l, []byte(`"requestId"`)) {
				continue
			}
			var v map[string]any
			if json.Unmarshal(l, &v) != nil {
				continue
			}
			return string(bytes.Replace(l, []byte(`"output_tokens":`), []byte(`"output_tokens":9`), 1)) + "\n"
		}
	}
	t.Fatal("no old response found")
	return ""
}

// TestDiscoverStore: the directory cache finds what a plain walk finds
// after files and session directories come and go, and does not trust a
// listing made in the same moment as the directory's last change.
func TestDiscoverStore(t *testing.T) {
	dir := genCorpus(t, 31)
	st := openStore(t)
	ctx := context.Background()
	check := func(what string) {
		t.Helper()
		got, err := usage.DiscoverStore(ctx, st, []string{dir})
		if err != nil {
			t.Fatal(err)
		}
		want, err := usage.Discover([]string{dir})
		if err != nil {
			t.Fatal(err)
		}
		if g, w := mustJSON(t, got), mustJSON(t, want); !bytes.Equal(g, w) {
			t.Fatalf("%s: cached discovery differs:\n%s", what, firstDiff(g, w))
		}
	}
	// Age every directory so its listing is trusted.
	old := time.Now().Add(-time.Hour)
	age := func() {
		filepath.WalkDir(dir, func(p string, de os.DirEntry, err error) error {
			if err == nil && de.IsDir() {
				os.Chtimes(p, old, old)
			}
			return nil
		})
	}
	age()
	check("first")
	check("unchanged")
	files := bySize(t, dir)
	proj := filepath.Dir(files[0].Path)
	appendFile(t, filepath.Join(proj, "new-session.jsonl"), response("n", "n1", old, 1, 1))
	check("new file")
	if err := os.MkdirAll(filepath.Join(proj, "new-session", "subagents"), 0o755); err != nil {
		t.Fatal(err)
	}
	appendFile(t, filepath.Join(proj, "new-session", "subagents", "agent-1.jsonl"), response("n", "n2", old, 1, 1))
	check("new subagent directory")
	if err := os.Remove(files[len(files)-1].Path); err != nil {
		t.Fatal(err)
	}
	check("deleted file")
	if err := os.RemoveAll(filepath.Join(proj, "new-session")); err != nil {
		t.Fatal(err)
	}
	check("deleted directory")
	// A file added within the same mtime tick as a listing leaves the
	// directory's mtime as listed: the listing was made right after the
	// change, so it is not trusted and the file is found.
	age()
	check("aged")
	info, err := os.Stat(proj)
	if err != nil {
		t.Fatal(err)
	}
	appendFile(t, filepath.Join(proj, "tick-a.jsonl"), response("n", "t1", old, 1, 1))
	check("listing right after a change")
	mt, _ := os.Stat(proj)
	appendFile(t, filepath.Join(proj, "tick-b.jsonl"), response("n", "t2", old, 1, 1))
	os.Chtimes(proj, info.ModTime(), mt.ModTime()) // as if in the same tick
	check("same tick")
}
