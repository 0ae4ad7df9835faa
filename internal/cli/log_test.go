package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.Local)
	tests := []struct {
		in   string
		want time.Time
	}{
		{"90m", now.Add(-90 * time.Minute)},
		{"24h", now.Add(-24 * time.Hour)},
		{"7d", now.Add(-7 * 24 * time.Hour)},
		{"2026-11-01", time.Date(2026, 11, 1, 0, 0, 0, 0, time.Local)},
	}
	for _, tt := range tests {
		got, err := parseSince(tt.in, now)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	if _, err := parseSince("yesterday", now); err == nil || !strings.Contains(err.Error(), "--since") {
		t.Errorf("bad --since must name the flag: %v", err)
	}
}

func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestLogCommand(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	if _, stderr, code := runCLI(t, "log"); code == 0 || !strings.Contains(stderr, "warden install") {
		t.Errorf("log without a store: code %d, %q", code, stderr)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, paths.DB())
	if err != nil {
		t.Fatal(err)
	}
	st.RecordHook(ctx, &store.Event{SessionID: "aaaa1111", Event: "PreToolUse", Tool: "Bash", Decision: "deny", Rule: "core:rm", Reason: "rm -rf /"}, nil)
	st.RecordHook(ctx, &store.Event{SessionID: "bbbb2222", Event: "Stop"}, nil)
	st.RecordHook(ctx, &store.Event{SessionID: "cccc3333", Event: "PreToolUse", Harness: "gemini", Tool: "Bash", Decision: "deny"}, nil)
	st.Close()

	out, _, code := runCLI(t, "log")
	if code != 0 || !strings.Contains(out, "core:rm") || !strings.Contains(out, "Stop") || !strings.HasPrefix(out, "TIME") {
		t.Errorf("log table (%d):\n%s", code, out)
	}
	out, _, _ = runCLI(t, "log", "--json", "--session", "aaaa1111")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var e store.Event
	if len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &e) != nil || e.Rule != "core:rm" {
		t.Errorf("log --json --session: %q", out)
	}
	out, _, _ = runCLI(t, "log", "--event", "Stop", "--json")
	if !strings.Contains(out, "bbbb2222") || strings.Contains(out, "aaaa1111") {
		t.Errorf("log --event: %q", out)
	}
	out, _, _ = runCLI(t, "log", "--harness", "gemini", "--json")
	if !strings.Contains(out, "cccc3333") || strings.Contains(out, "aaaa1111") || strings.Contains(out, "bbbb2222") {
		t.Errorf("log --harness gemini: %q", out)
	}
	out, _, _ = runCLI(t, "log")
	if !strings.Contains(out, "PreToolUse (gemini)") {
		t.Errorf("the table names another CLI's events: %q", out)
	}
	if _, stderr, code := runCLI(t, "log", "--harness", "cursor"); code == 0 || !strings.Contains(stderr, "unknown harness") {
		t.Errorf("log --harness cursor: %d %q", code, stderr)
	}
}

func TestStatusOnOffCLI(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	t.Chdir(t.TempDir())
	out, _, code := runCLI(t, "off")
	if code != 0 || !strings.Contains(out, "warden is off") {
		t.Fatalf("off: %d %q", code, out)
	}
	out, _, _ = runCLI(t, "status")
	if !strings.Contains(out, "OFF") {
		t.Errorf("status: %q", out)
	}
	out, _, _ = runCLI(t, "pace-maker", "on")
	if !strings.Contains(out, "warden is on") {
		t.Errorf("pace-maker on: %q", out)
	}
	if _, _, code := runCLI(t, "pace-maker", "dance"); code == 0 {
		t.Error("unknown pace-maker command accepted")
	}
	out, _, code = runCLI(t, "--version")
	if code != 0 || !strings.HasPrefix(out, "warden ") || !strings.Contains(out, "commit") {
		t.Errorf("--version: %q", out)
	}
}
