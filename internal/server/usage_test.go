package server_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/server"
)

// /api/usage?report=session reads Claude Code's transcripts (the rig's
// transcript directory) and answers `warden usage session --json`: one row
// per (project, session), tokens summed over its assistant messages, a
// repeated message counted once; a transcript written after the first
// report shows up in the next.
func TestUsageSessionReport(t *testing.T) {
	r := newAPIRig(t, 10, server.Webhooks{})
	code, body, _ := r.do("GET", "/api/usage?report=session", "", r.token, nil)
	if code != 200 || !strings.Contains(string(body), `"sessions":[]`) {
		t.Fatalf("before any transcript: %d %s", code, body)
	}

	dir := filepath.Join(filepath.Dir(r.project), "claude", "projects", "-home-dev-app")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	line := func(id, ts string, in, out int) string {
		return `{"type":"assistant","sessionId":"sess-1","requestId":"req-` + id + `","timestamp":"` + ts +
			`","message":{"id":"msg-` + id + `","model":"claude-sonnet-4-5-20250929","usage":{"input_tokens":` +
			itoa(in) + `,"output_tokens":` + itoa(out) + `,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}`
	}
	transcript := strings.Join([]string{
		line("1", "2026-11-20T10:00:00.000Z", 100, 20),
		line("2", "2026-11-20T10:05:00.000Z", 300, 40),
		line("2", "2026-11-20T10:05:00.000Z", 300, 40), // the same message again: counted once
	}, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dir, "sess-1.jsonl"), []byte(transcript), 0o644); err != nil {
		t.Fatal(err)
	}

	code, body, _ = r.do("GET", "/api/usage?report=session", "", r.token, nil)
	if code != 200 {
		t.Fatalf("session report: %d %s", code, body)
	}
	var rep struct {
		Sessions []struct {
			SessionID, ProjectPath, FirstActivity, LastActivity string
			InputTokens, OutputTokens, TotalTokens              int64
			ModelsUsed                                          []string
		}
		Totals struct{ TotalTokens int64 }
	}
	if err := json.Unmarshal(body, &rep); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	if len(rep.Sessions) != 1 {
		t.Fatalf("want 1 session, got %s", body)
	}
	s := rep.Sessions[0]
	if s.SessionID != "sess-1" || s.ProjectPath != "-home-dev-app" {
		t.Errorf("session %q in %q, want sess-1 in -home-dev-app", s.SessionID, s.ProjectPath)
	}
	if s.InputTokens != 400 || s.OutputTokens != 60 || s.TotalTokens != 460 || rep.Totals.TotalTokens != 460 {
		t.Errorf("tokens in %d out %d total %d (totals %d), want 400, 60, 460", s.InputTokens, s.OutputTokens, s.TotalTokens, rep.Totals.TotalTokens)
	}
	if s.FirstActivity != "2026-11-20T10:00:00.000Z" || s.LastActivity != "2026-11-20T10:05:00.000Z" {
		t.Errorf("activity %s … %s", s.FirstActivity, s.LastActivity)
	}
	if len(s.ModelsUsed) != 1 || s.ModelsUsed[0] != "claude-sonnet-4-5-20250929" {
		t.Errorf("models %v", s.ModelsUsed)
	}

	for _, c := range []struct {
		path string
		code int
	}{{"/api/usage?report=session&since=today", 400}, {"/api/usage?report=sessions", 400}} {
		if code, body, _ := r.do("GET", c.path, "", r.token, nil); code != c.code {
			t.Errorf("%s: %d %s, want %d", c.path, code, body, c.code)
		}
	}
	if code, _, _ := r.do("GET", "/api/usage?report=session", "", "", nil); code != 401 {
		t.Errorf("without a token: %d, want 401", code)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
