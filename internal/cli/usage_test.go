package cli

import (
	"encoding/json"
	"strings"
	"testing"

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
