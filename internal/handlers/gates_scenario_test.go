package handlers_test

import (
	"strings"
	"testing"
)

func TestResearchGateSequence(t *testing.T) {
	s := newSim(t, "[gates]\nresearch = true\n")
	s.prompt("Add a retry to the store open.")
	r := s.pre("Write", s.write("a.go"))
	s.wantDecision(r, "deny", "edit before research")
	if !strings.Contains(r.text(), "local") || !strings.Contains(r.text(), "web") || strings.Contains(r.text(), "github:") {
		t.Errorf("denial must name the missing categories that are set up here: %s", r.text())
	}
	// The model claims it researched: words open nothing.
	s.hook("Stop", map[string]any{"last_assistant_message": "I researched the docs and the web thoroughly.", "stop_hook_active": false})
	s.wantDecision(s.pre("Edit", map[string]any{"file_path": s.project + "/a.go"}), "deny", "after a claim")
	// A failed read does not count either.
	s.pre("Read", map[string]any{"file_path": s.project + "/a.go"})
	s.fail("Read", map[string]any{"file_path": s.project + "/a.go"}, "File does not exist.")
	s.wantDecision(s.pre("Write", s.write("a.go")), "deny", "after a failed read")
	s.pre("Read", map[string]any{"file_path": s.project + "/a.go"})
	s.post("Read", map[string]any{"file_path": s.project + "/a.go"}, map[string]any{"type": "text"})
	r = s.pre("Write", s.write("a.go"))
	s.wantDecision(r, "deny", "local done, web missing")
	if strings.Contains(r.text(), "local:") {
		t.Errorf("local is done but still listed: %s", r.text())
	}
	// Reads and test runs pass while the gate is closed.
	s.wantDecision(s.pre("Bash", bash("go test ./...")), "", "tests while closed")
	s.pre("WebSearch", map[string]any{"query": "sqlite busy timeout"})
	s.post("WebSearch", map[string]any{"query": "sqlite busy timeout"}, map[string]any{"results": []any{}})
	s.wantDecision(s.pre("Write", s.write("a.go")), "", "research done")
	s.wantDecision(s.pre("Bash", bash("rm -f old.go")), "", "research done, bash mutation")
	// A question does not close it; a new task does.
	s.prompt("why is the build slow?")
	s.wantDecision(s.pre("Write", s.write("b.go")), "", "after a question")
	s.prompt("Now rename the package.")
	s.wantDecision(s.pre("Bash", bash("echo x > b.go")), "deny", "new task")
	if r := s.prompt("warden research"); !strings.Contains(r.text(), "missing") {
		t.Errorf("warden research: %s", r.text())
	}
}

func TestResearchGateWithMCPServers(t *testing.T) {
	s := newSim(t, "[gates]\nresearch = true\n")
	writeFileT(t, s.project+"/.mcp.json", `{"mcpServers":{"github":{"command":"gh-mcp"},"context7":{"command":"c7"}}}`)
	s.prompt("Fix the flaky test.")
	r := s.pre("Write", s.write("a.go"))
	for _, c := range []string{"docs:", "github:", "web:", "local:"} {
		if !strings.Contains(r.text(), c) {
			t.Errorf("with docs and github servers set up, %s is required: %s", c, r.text())
		}
	}
	for _, tool := range []string{"mcp__context7__get-library-docs", "mcp__github__search_issues", "WebFetch", "Grep"} {
		s.pre(tool, map[string]any{})
		s.post(tool, map[string]any{}, map[string]any{})
	}
	s.wantDecision(s.pre("Write", s.write("a.go")), "", "all four done")
}

func TestBreakerSequences(t *testing.T) {
	t.Run("three identical failures trip it", func(t *testing.T) {
		s := newSim(t, "")
		for i, line := range []string{"12", "40", "7"} {
			s.pre("Bash", bash("go build ./..."))
			r := s.fail("Bash", bash("go build ./..."), "Exit code 1\n./store/open.go:"+line+":3: undefined: retryLocked")
			if i == 2 && !strings.Contains(r.text(), "circuit breaker tripped") {
				t.Errorf("third failure must say the breaker tripped: %s", r.text())
			}
		}
		r := s.pre("Edit", map[string]any{"file_path": s.project + "/x.go"})
		s.wantDecision(r, "deny", "edit while tripped")
		if !strings.Contains(r.text(), "undefined: retryLocked") || !strings.Contains(r.text(), "rb-") {
			t.Errorf("denial must list the failures and how to reset: %s", r.text())
		}
		s.wantDecision(s.pre("Read", map[string]any{"file_path": s.project + "/x.go"}), "", "read while tripped")
		// The model cannot reset it.
		r = s.pre("Bash", bash("warden breaker reset"))
		s.wantDecision(r, "deny", "model resets the breaker")
		s.wantDecision(s.pre("Bash", bash(`bash -c "cd /tmp && warden breaker reset"`)), "deny", "hidden reset")
		// A success does not reset a tripped breaker.
		s.post("Bash", bash("ls"), okBash())
		s.wantDecision(s.pre("Write", s.write("y.go")), "deny", "after a success")
		// It survives a restart of Claude Code (a new session, same project).
		s.session = "another-session"
		s.wantDecision(s.pre("Write", s.write("y.go")), "deny", "new session")
		if r := s.prompt("rb?"); !strings.Contains(r.text(), "TRIPPED") {
			t.Errorf("rb?: %s", r.text())
		}
		if r := s.prompt("rb-"); !strings.Contains(r.text(), "breaker reset") {
			t.Errorf("rb-: %s", r.text())
		}
		s.wantDecision(s.pre("Write", s.write("y.go")), "", "after the user's reset")
	})
	t.Run("three different consecutive failures trip it", func(t *testing.T) {
		s := newSim(t, "")
		for _, e := range []string{"Exit code 1\nnpm ERR! missing script", "Exit code 2\ngrep: bad regex", "Exit code 127\nfoo: command not found"} {
			s.pre("Bash", bash("x"))
			s.fail("Bash", bash("x"), e)
		}
		s.wantDecision(s.pre("Write", s.write("a")), "deny", "three different failures")
	})
	t.Run("two failures and a success do not", func(t *testing.T) {
		s := newSim(t, "")
		s.fail("Bash", bash("x"), "Exit code 1\nerror A")
		s.fail("Bash", bash("y"), "Exit code 1\nerror B")
		s.post("Bash", bash("z"), okBash())
		s.fail("Bash", bash("w"), "Exit code 1\nerror C")
		s.wantDecision(s.pre("Write", s.write("a")), "", "2 + success + 1")
	})
	t.Run("same failure around successes trips within a turn", func(t *testing.T) {
		s := newSim(t, "")
		s.prompt("Fix the build.")
		for i := 0; i < 3; i++ {
			s.fail("Bash", bash("go vet"), "Exit code 1\nvet: main.go:1"+string(rune('0'+i))+": unreachable code")
			s.post("Bash", bash("ls"), okBash())
		}
		s.wantDecision(s.pre("Write", s.write("a")), "deny", "same signature 3x in a turn")
	})
	t.Run("output that mentions error is not a failure", func(t *testing.T) {
		s := newSim(t, "")
		for i := 0; i < 4; i++ {
			s.post("Bash", bash("grep -r error ."), map[string]any{"stdout": "log.go: error handling\nERROR: x", "stderr": ""})
		}
		s.wantDecision(s.pre("Write", s.write("a")), "", "error in text")
	})
}

func TestSafemodeSequence(t *testing.T) {
	s := newSim(t, "")
	if r := s.prompt("s+"); !strings.Contains(r.text(), "safemode ON") || r.decision() != "block" {
		t.Fatalf("s+: %s", r.text())
	}
	for _, tc := range []struct {
		tool  string
		input map[string]any
		want  string
	}{
		{"Write", s.write("a"), "deny"},
		{"NotebookEdit", map[string]any{"notebook_path": s.project + "/n.ipynb"}, "deny"},
		{"mcp__filesystem__write_file", map[string]any{"path": s.project + "/a"}, "deny"},
		{"Bash", bash("rm -f a"), "deny"},
		{"Bash", bash("sh -c 'echo x > a'"), "deny"},
		{"Bash", bash("python3 -c 'open(\"a\",\"w\")'"), "deny"},
		{"Bash", bash("ls -la"), ""},
		{"Bash", bash("go test ./..."), ""},
		{"Read", map[string]any{"file_path": s.project + "/a"}, ""},
		{"Bash", bash("warden safemode off"), "deny"},
	} {
		s.wantDecision(s.pre(tc.tool, tc.input), tc.want, "safemode "+tc.tool+" "+toString(tc.input))
	}
	// Changes no path shows, found by the policy's rules: safemode stops
	// them too (the policy alone would only ask). Reads of secrets keep
	// the policy's ask: safemode stops changes, not reads.
	for cmd, want := range map[string]string{
		"ansible-playbook -i inventory/prod site.yml":    "deny",
		"sudo mount -o remount,rw /":                     "deny",
		"npx prisma migrate reset --force":               "deny",
		"npx -y some-random-cli@latest init":             "deny",
		"git config --global user.email bot@example.com": "deny",
		"timeout 60 helmfile -e production sync":         "deny",
		"gh auth token":                                  "ask",
		"cat .env":                                       "ask",
		"printenv | grep -i token":                       "ask",
	} {
		r := s.pre("Bash", bash(cmd))
		s.wantDecision(r, want, "safemode "+cmd)
		if inSafemode := strings.Contains(r.text(), "gates:safemode") || strings.Contains(r.text(), "safemode is on"); inSafemode != (want == "deny") {
			t.Errorf("safemode %q: denied by safemode = %v, want %v: %s", cmd, inSafemode, want == "deny", r.text())
		}
	}
	if r := s.prompt("s?"); !strings.Contains(r.text(), "ON") {
		t.Errorf("s?: %s", r.text())
	}
	s.prompt("s-")
	s.wantDecision(s.pre("Write", s.write("a")), "", "after s-")
}

func TestStartupGateSequence(t *testing.T) {
	s := newSim(t, "[gates]\nstartup_steps = [\"read:docs/ARCH.md\", \"run:^make test$\"]\n")
	r := s.hook("SessionStart", map[string]any{"source": "startup"})
	if !strings.Contains(r.text(), "docs/ARCH.md") || !strings.Contains(r.text(), "make test") {
		t.Errorf("SessionStart must tell the steps: %s", r.text())
	}
	r = s.pre("Write", s.write("a"))
	s.wantDecision(r, "deny", "before the steps")
	if !strings.Contains(r.text(), "2 of 2") {
		t.Errorf("denial: %s", r.text())
	}
	s.post("Read", map[string]any{"file_path": s.project + "/docs/ARCH.md"}, map[string]any{})
	s.fail("Bash", bash("make test"), "Exit code 2\nFAIL")
	r = s.pre("Write", s.write("a"))
	s.wantDecision(r, "deny", "failed run does not count")
	if !strings.Contains(r.text(), "1 of 2") {
		t.Errorf("denial: %s", r.text())
	}
	s.post("Bash", bash("make test"), okBash())
	s.wantDecision(s.pre("Write", s.write("a")), "", "steps done")
}

func TestVerifyBeforeStopSequence(t *testing.T) {
	s := newSim(t, "[gates]\nverify_before_stop = true\n")
	s.post("Write", s.write("a.go"), map[string]any{"type": "create"})
	r := s.hook("Stop", map[string]any{"stop_hook_active": false})
	s.wantDecision(r, "block", "stop after an edit")
	if !strings.Contains(r.text(), "tests") {
		t.Errorf("instruction: %s", r.text())
	}
	// The continuation's own Stop is never blocked (no loop).
	s.wantDecision(s.hook("Stop", map[string]any{"stop_hook_active": true}), "", "stop_hook_active")
	// Blocked once per edit set.
	s.wantDecision(s.hook("Stop", map[string]any{"stop_hook_active": false}), "", "second stop, same edits")
	s.post("Edit", map[string]any{"file_path": s.project + "/a.go"}, map[string]any{})
	s.post("Bash", bash("go test ./..."), okBash())
	s.wantDecision(s.hook("Stop", map[string]any{"stop_hook_active": false}), "", "tested after the edit")
}

func toString(m map[string]any) string {
	var b strings.Builder
	for k, v := range m {
		b.WriteString(k + "=")
		if s, ok := v.(string); ok {
			b.WriteString(s)
		}
		b.WriteString(" ")
	}
	return b.String()
}
