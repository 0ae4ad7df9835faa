package mcp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-dev/warden/internal/testenv"
)

// The figure tools run the real warden-core against a temp WARDEN_HOME
// with a store holding one recorded hook event.
func TestFigureTools(t *testing.T) {
	dir := testenv.Binaries(t, "warden", "warden-core")
	home := t.TempDir()
	t.Setenv("WARDEN_HOME", filepath.Join(home, ".warden"))
	t.Setenv("HOME", home)
	t.Setenv("WARDEN_KEEPER", "off")
	e := newEnv(t, nil)
	// One real hook event in the store: a denied rm -rf /.
	hook := exec.Command(filepath.Join(dir, "warden"), "hook", "--harness", "claude")
	hook.Dir = e.dir
	hook.Stdin = strings.NewReader(`{"session_id":"fig-1","hook_event_name":"PreToolUse","cwd":"` + e.dir + `","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t1"}`)
	if out, err := hook.CombinedOutput(); err != nil || !strings.Contains(string(out), "deny") {
		t.Fatalf("hook: %v\n%s", err, out)
	}
	cs := e.connect(t, Options{Core: filepath.Join(dir, "warden-core")})

	var st StatusOut
	call(t, cs, "status", nil, &st)
	if !st.Enabled || !strings.Contains(st.Text, "1 events in the last 24 h, 1 denied") || st.Judge != "none" || st.Command != "warden status" {
		t.Errorf("status: %+v", st)
	}
	var ex struct {
		Data struct {
			Decision string `json:"decision"`
			Rules    []struct {
				ID string `json:"id"`
			} `json:"rules"`
		} `json:"data"`
	}
	call(t, cs, "explain", map[string]any{"command": "git push --force origin main"}, &ex)
	if ex.Data.Decision != "deny" || len(ex.Data.Rules) == 0 {
		t.Errorf("explain: %+v", ex)
	}
	call(t, cs, "explain", map[string]any{"command": "ls -la"}, &ex)
	if ex.Data.Decision != "allow" {
		t.Errorf("explain ls: %+v", ex)
	}
	var evs struct {
		Data []map[string]any `json:"data"`
	}
	call(t, cs, "events", map[string]any{"limit": 5, "session": "fig-1"}, &evs)
	if len(evs.Data) != 1 {
		t.Fatalf("events: %+v", evs)
	}
	if b, _ := json.Marshal(evs.Data[0]); !strings.Contains(string(b), "deny") || !strings.Contains(string(b), "PreToolUse") {
		t.Errorf("event %s", b)
	}
	var pace Figures
	call(t, cs, "pace", nil, &pace)
	if pace.Command != "warden pace" || pace.Text == "" {
		t.Errorf("pace: %+v", pace)
	}
	var usage Figures
	call(t, cs, "usage", map[string]any{"report": "daily", "since": "2026-01-01"}, &usage)
	if usage.Data == nil || usage.Command != "warden usage daily --json --since 20260101" {
		t.Errorf("usage: %+v", usage)
	}
}

// A missing warden-core is an error result that says where it belongs.
func TestFigureToolsWithoutCore(t *testing.T) {
	e := newEnv(t, nil)
	cs := e.connect(t, Options{})
	res, err := callErr(cs, "status", nil)
	if err != nil || !res.IsError || !strings.Contains(resultText(res), "warden-core belongs next to warden-helper") {
		t.Errorf("got %v %s", err, resultText(res))
	}
}

// warden mcp through the front binary: a real stdio session with the
// built binaries (the command Claude Code runs from .mcp.json).
func TestServeOverStdioThroughFront(t *testing.T) {
	dir := testenv.Binaries(t, "warden", "warden-core", "warden-helper")
	home := t.TempDir()
	e := newEnv(t, nil)
	cmd := exec.Command(filepath.Join(dir, "warden"), "mcp")
	cmd.Dir = e.dir
	cmd.Env = append(os.Environ(), "HOME="+home, "WARDEN_HOME="+filepath.Join(home, ".warden"), "WARDEN_KEEPER=off")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if name := cs.InitializeResult().ServerInfo.Name; name != "warden" {
		t.Errorf("server name %q", name)
	}
	var st StatusOut
	call(t, cs, "status", nil, &st)
	if !strings.Contains(st.Text, "store:") {
		t.Errorf("status over stdio: %+v", st)
	}
	var out CheckOut
	write(t, e.dir, "Makefile", "test:\n\t@echo tests pass\n")
	call(t, cs, "check", nil, &out)
	if !out.Passed || out.Source != "detected" || len(out.Commands) != 1 || out.Commands[0].Command != "make test" {
		t.Errorf("check over stdio: %+v", out)
	}
}
