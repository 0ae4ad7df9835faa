package mcp

import (
	"strings"
	"testing"
)

func TestCheckConfiguredCommands(t *testing.T) {
	e := newEnv(t, nil)
	e.cfg.MCP.CheckCommands = []string{"test -f main.go && echo vet ok", "echo '--- FAIL: TestAdd (add_test.go:12): got 3, want 4' >&2; exit 3"}
	cs := e.connect(t, Options{})
	var out CheckOut
	call(t, cs, "check", nil, &out)
	if out.Passed || out.Source != "configured" || len(out.Commands) != 2 {
		t.Fatalf("got %+v", out)
	}
	if c := out.Commands[0]; !c.Passed || c.ExitCode != 0 || c.Output != "" {
		t.Errorf("first command %+v", c)
	}
	c := out.Commands[1]
	if c.Passed || c.ExitCode != 3 || !strings.Contains(c.Output, "FAIL: TestAdd") {
		t.Errorf("second command %+v", c)
	}
	// No provider: the raw output is the summary.
	if out.SummarizedBy != "raw" || !strings.Contains(out.Summary, "exit 3") || !strings.Contains(out.Summary, "got 3, want 4") {
		t.Errorf("summary by %s: %q", out.SummarizedBy, out.Summary)
	}
}

// With a provider the judge summarizes the failures from their output.
func TestCheckSummarizedByJudge(t *testing.T) {
	api := newFakeAPI(t, func(r apiRequest) apiReply {
		return apiReply{Text: "TestAdd fails at add_test.go:12: got 3, want 4."}
	})
	e := newEnv(t, api)
	e.cfg.MCP.CheckCommands = []string{"echo '--- FAIL: TestAdd (add_test.go:12): got 3, want 4'; exit 1"}
	cs := e.connect(t, Options{})
	var out CheckOut
	call(t, cs, "check", nil, &out)
	if out.Passed || out.SummarizedBy != "fake-haiku" || out.Summary != "TestAdd fails at add_test.go:12: got 3, want 4." {
		t.Fatalf("got %+v", out)
	}
	reqs := api.requests()
	if len(reqs) != 1 || !strings.Contains(reqs[0].lastUser().Content[0].Text, "--- FAIL: TestAdd") {
		t.Errorf("requests %+v", reqs)
	}
	// Passing checks ask no model.
	e.cfg.MCP.CheckCommands = []string{"true"}
	call(t, cs, "check", nil, &out)
	if !out.Passed || out.Summary != "all 1 command(s) passed" || len(api.requests()) != 1 {
		t.Errorf("passing: %+v, %d requests", out, len(api.requests()))
	}
}

// The deadline kills the command and what it started; the rest is
// skipped.
func TestCheckDeadline(t *testing.T) {
	e := newEnv(t, nil)
	e.cfg.MCP.CheckCommands = []string{"sleep 60 & sleep 60; echo never", "echo second"}
	cs := e.connect(t, Options{})
	var out CheckOut
	call(t, cs, "check", map[string]any{"timeout_seconds": 1}, &out)
	if out.Passed || !out.Commands[0].TimedOut || !out.Commands[1].Skipped {
		t.Fatalf("got %+v", out)
	}
	if !strings.Contains(out.Commands[0].Output, "killed at the check's deadline") {
		t.Errorf("output %q", out.Commands[0].Output)
	}
}

func TestCheckDetection(t *testing.T) {
	cases := []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"go.mod": "module x\n"}, "go vet ./...|go test ./..."},
		{map[string]string{"package.json": `{"scripts":{"lint":"eslint .","test":"jest"}}`}, "npm run lint|npm test"},
		{map[string]string{"package.json": `{"scripts":{"test":"echo \"Error: no test specified\" && exit 1"}}`}, ""},
		{map[string]string{"pyproject.toml": "[project]\n"}, "python3 -m pytest -q"},
		{map[string]string{"Cargo.toml": "[package]\n"}, "cargo test"},
		{map[string]string{"Makefile": "all:\n\ttrue\n\ntest:\n\ttrue\n"}, "make test"},
		{map[string]string{"go.mod": "module x\n", "Makefile": "\ntest:\n"}, "go vet ./...|go test ./..."},
		{map[string]string{"README.md": "x"}, ""},
	}
	for _, c := range cases {
		dir := t.TempDir()
		for n, s := range c.files {
			write(t, dir, n, s)
		}
		if got := strings.Join(detectChecks(dir), "|"); got != c.want {
			t.Errorf("%v: %q, want %q", c.files, got, c.want)
		}
	}
	// A real detected run: a Go module whose test fails.
	e := newEnv(t, nil)
	write(t, e.dir, "go.mod", "module example.com/x\n\ngo 1.21\n")
	write(t, e.dir, "main_test.go", "package main\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) { t.Fatal(\"boom at main_test.go\") }\n")
	cs := e.connect(t, Options{})
	var out CheckOut
	call(t, cs, "check", nil, &out)
	if out.Source != "detected" || len(out.Commands) != 2 || !out.Commands[0].Passed || out.Commands[1].Passed ||
		!strings.Contains(out.Commands[1].Output, "boom at main_test.go") {
		t.Fatalf("got %+v", out)
	}
}
