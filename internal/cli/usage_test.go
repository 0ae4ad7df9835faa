package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/usage/corpus"
)

// TestUsageCommands: every report runs against a generated corpus, through
// the store cache, adds up to the same total, and the cached second run
// prints what the first printed.
func TestUsageCommands(t *testing.T) {
	dir := t.TempDir()
	if _, err := corpus.Generate(dir, corpus.Config{Seed: 5, Projects: 2, Sessions: 2, Turns: 15}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WARDEN_HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", dir)
	t.Setenv("TZ", "UTC")
	totals := map[string]float64{}
	for _, report := range []string{"daily", "weekly", "monthly", "session"} {
		out, errOut, code := runCLI(t, "usage", report, "--json", "--timezone", "UTC")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", report, code, errOut)
		}
		var v struct {
			Totals struct {
				TotalTokens float64 `json:"totalTokens"`
			} `json:"totals"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("%s: %v\n%s", report, err, out)
		}
		totals[report] = v.Totals.TotalTokens
		if v.Totals.TotalTokens == 0 {
			t.Errorf("%s: no tokens", report)
		}
		if errOut != "" {
			t.Errorf("%s --json wrote to stderr when not a terminal: %q", report, errOut)
		}
	}
	for r, v := range totals {
		if v != totals["session"] {
			t.Errorf("%s total %v != session total %v", r, v, totals["session"])
		}
	}
	first, _, code := runCLI(t, "usage", "blocks", "--json")
	second, _, code2 := runCLI(t, "usage", "blocks", "--json")
	nocache, _, code3 := runCLI(t, "usage", "blocks", "--json", "--no-cache")
	if code != 0 || code2 != 0 || code3 != 0 || first != second || first != nocache || !strings.Contains(first, `"blocks"`) {
		t.Errorf("blocks: cached run differs or failed (%d %d %d)", code, code2, code3)
	}
	for _, args := range [][]string{{"usage", "daily", "--breakdown"}, {"usage", "session"}, {"usage", "blocks", "--token-limit", "max"}, {"usage", "monthly"}} {
		out, errOut, code := runCLI(t, args...)
		if code != 0 || !strings.Contains(out, "Total") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
		if !strings.Contains(errOut, "claude-test-unknown-1") && args[1] != "blocks" {
			t.Errorf("%v: no warning about the unpriced model: %q", args, errOut)
		}
	}
	if _, errOut, code := runCLI(t, "usage", "daily", "--since", "2026-13-01"); code == 0 || !strings.Contains(errOut, "--since") {
		t.Errorf("bad --since: exit %d %q", code, errOut)
	}
}

// TestUsageBlocksAfterAppend: `usage blocks` after lines are appended to a
// transcript (read incrementally through the store) and after a transcript
// is rewritten prints what a run without the cache prints.
func TestUsageBlocksAfterAppend(t *testing.T) {
	dir := t.TempDir()
	if _, err := corpus.Generate(dir, corpus.Config{Seed: 9, Projects: 2, Sessions: 2, Turns: 15}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WARDEN_HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", dir)
	t.Setenv("TZ", "UTC")
	session := filepath.Join(dir, "projects", "-home-dev-live", "live.jsonl")
	if err := os.MkdirAll(filepath.Dir(session), 0o755); err != nil {
		t.Fatal(err)
	}
	same := func(what string) {
		t.Helper()
		cached, errOut, code := runCLI(t, "usage", "blocks", "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", what, code, errOut)
		}
		fresh, _, _ := runCLI(t, "usage", "blocks", "--json", "--no-cache")
		if cached != fresh {
			t.Fatalf("%s: cached blocks differ from a run without cache:\n%s\n---\n%s", what, cached, fresh)
		}
	}
	line := func(id string, at time.Time, out int) string {
		return fmt.Sprintf(`{"type":"assistant","sessionId":"live","requestId":"req_%s","timestamp":%q,"version":"2.1.330","message":{"id":"msg_%s","model":"claude-sonnet-4-5-20250929","usage":{"input_tokens":3,"output_tokens":%d,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}`+"\n",
			id, at.UTC().Format("2006-01-02T15:04:05.000Z"), id, out)
	}
	at := time.Date(2026, 3, 20, 10, 0, 0, 0, time.UTC)
	if err := os.WriteFile(session, []byte(line("a", at, 5)), 0o644); err != nil {
		t.Fatal(err)
	}
	same("first")
	f, err := os.OpenFile(session, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, line("a", at.Add(time.Second), 50)+line("b", at.Add(time.Minute), 7))
	f.Close()
	same("after an append")
	if err := os.WriteFile(session, []byte(line("c", at.Add(-time.Hour), 9)+line("d", at, 9)+line("e", at, 9)), 0o644); err != nil {
		t.Fatal(err)
	}
	same("after a rewrite")
}
