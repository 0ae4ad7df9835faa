//go:build linux

package daemon_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/warden-dev/warden/internal/daemon"
)

// A running `warden serve` picks up a saved config.toml by itself: what
// can change live applies (serve.max_agents shows in its status at once),
// keys that need a restart are named, and `warden config check` says
// whether the daemon applies the file as it is. A broken file is refused
// and the config in force stays, and config check says the daemon runs an
// older config and why. SIGHUP reloads and does not stop the daemon.
func TestDaemonReloadsItsConfig(t *testing.T) {
	h := newHome(t)
	d := h.serve()
	cfgPath := filepath.Join(h.dir, "config.toml")
	orig, _ := os.ReadFile(cfgPath)
	stamp := func() daemon.ConfigStamp {
		st, err := daemon.ReadState(filepath.Join(h.dir, "run", "serve.json"))
		if err != nil || st.Config == nil {
			t.Fatalf("state: %v %+v", err, st)
		}
		return *st.Config
	}
	check := func() (map[string]any, string) {
		out, _ := h.warden("config", "check", "--json")
		var j struct {
			Daemon map[string]any `json:"daemon"`
		}
		if err := json.Unmarshal([]byte(out), &j); err != nil || j.Daemon == nil {
			t.Fatalf("config check --json: %v\n%s", err, out)
		}
		text, _ := h.warden("config", "check")
		return j.Daemon, text
	}
	maxAgents := func() string {
		out, code := h.warden("serve", "status")
		if code != 0 {
			t.Fatalf("serve status: %d %s", code, out)
		}
		return out
	}
	if j, text := check(); j["current"] != true || !strings.Contains(text, fmt.Sprintf("warden serve (pid %d) applies", d.Process.Pid)) {
		t.Fatalf("at start: %v\n%s", j, text)
	}
	first := stamp()

	// Live: more slots; restart only: the address.
	next := strings.Replace(string(orig), "max_agents = 2", "max_agents = 5\naddr = \"127.0.0.1:0\"\nsystem = \"renamed\"", 1)
	if err := os.WriteFile(cfgPath, []byte(next), 0o600); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the saved config applied", func() bool { return stamp().Hash != first.Hash })
	if out := maxAgents(); !strings.Contains(out, "of 5 agents") {
		t.Errorf("serve.max_agents = 5 not applied:\n%s", out)
	}
	s := stamp()
	if !slices.Contains(s.NeedsRestart, "serve.system") || slices.Contains(s.NeedsRestart, "serve.max_agents") || s.Error != "" {
		t.Errorf("needs restart %v, error %q; want serve.system only", s.NeedsRestart, s.Error)
	}
	if j, text := check(); j["current"] != true || !strings.Contains(text, "serve.system") || !strings.Contains(text, "restarts") {
		t.Errorf("after a live change: %v\n%s", j, text)
	}

	// Broken: refused, the running config stays.
	if err := os.WriteFile(cfgPath, []byte("[serve]\nmax_agents = \"many\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the broken config refused", func() bool { return stamp().Error != "" })
	if s := stamp(); s.Hash != stampHash(next) || !strings.Contains(s.Error, "max_agents") {
		t.Errorf("after a broken save: %+v", s)
	}
	if out := maxAgents(); !strings.Contains(out, "of 5 agents") {
		t.Errorf("a broken config changed the daemon:\n%s", out)
	}
	if j, text := check(); j["current"] != false || !strings.Contains(text, "OLDER config") || !strings.Contains(text, "refused") {
		t.Errorf("config check after a broken save: %v\n%s", j, text)
	}

	// Fixed and SIGHUP: applied; the daemon goes on.
	if err := os.WriteFile(cfgPath, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	before := stamp().LoadedAt
	if err := d.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the reload after SIGHUP", func() bool { s := stamp(); return s.Error == "" && s.LoadedAt.After(before) })
	if out := maxAgents(); !strings.Contains(out, "of 2 agents") {
		t.Errorf("after SIGHUP:\n%s", out)
	}
	if j, _ := check(); j["current"] != true {
		t.Errorf("config check after the fix: %v", j)
	}
}

func stampHash(s string) string {
	f, _ := os.CreateTemp("", "h")
	defer os.Remove(f.Name())
	f.WriteString(s)
	f.Close()
	h, _, _ := daemon.HashFile(f.Name())
	return h
}
