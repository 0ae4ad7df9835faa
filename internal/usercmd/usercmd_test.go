package usercmd

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/store/sqlite"
)

func TestParse(t *testing.T) {
	tests := []struct {
		prompt string
		want   string // command name, "" = not a command
	}{
		{"warden status", "status"},
		{"  Warden STATUS  ", "status"},
		{"/warden off", "off"},
		{"warden", "help"},
		{"pace-maker on", "on"},
		{"warden help", "help"},
		{"warden should refactor the parser", ""},
		{"warden frobnicate", ""},
		{"please run warden status", ""},
		{"status", ""},
		{"", ""},
	}
	for _, tt := range tests {
		c, _, ok := Parse(tt.prompt)
		got := ""
		if ok {
			got = c.Name
		}
		if got != tt.want {
			t.Errorf("Parse(%q) = %q, want %q", tt.prompt, got, tt.want)
		}
	}
}

func TestOnOffRoundTrip(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	env := &Env{Store: st}
	if !Enabled(ctx, st) {
		t.Fatal("a new store must be on")
	}
	off, _ := Lookup("off")
	Run(ctx, off, env, nil)
	if Enabled(ctx, st) {
		t.Fatal("still on after off")
	}
	status, _ := Lookup("status")
	if out := Run(ctx, status, env, nil); !strings.Contains(out, "OFF") {
		t.Errorf("status: %s", out)
	}
	on, _ := Lookup("on")
	Run(ctx, on, env, nil)
	if !Enabled(ctx, st) {
		t.Fatal("still off after on")
	}
	// Without a store, on/off say so instead of failing silently.
	if out := Run(ctx, off, &Env{}, nil); !strings.Contains(out, "not usable") {
		t.Errorf("off without store: %s", out)
	}
	help, _ := Lookup("help")
	if out := Run(ctx, help, env, nil); !strings.Contains(out, "warden status") || !strings.Contains(out, "pace-maker") {
		t.Errorf("help: %s", out)
	}
}

// Every command is wired once, has help, and runs through Lookup: the list
// in commands() is the whole registry.
func TestCommandsAreWiredOnce(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range commands() {
		if seen[c.Name] || c.Help == "" || c.Run == nil {
			t.Errorf("command %q: duplicate, no help or no Run", c.Name)
		}
		seen[c.Name] = true
		if got, ok := Lookup(c.Name); !ok || got.Name != c.Name {
			t.Errorf("Lookup(%q) = %v, %v", c.Name, got.Name, ok)
		}
	}
	help, _ := runHelp(context.Background(), nil, nil)
	for name := range seen {
		if !strings.Contains(help, "warden "+name+" ") {
			t.Errorf("help does not list %s:\n%s", name, help)
		}
	}
}
