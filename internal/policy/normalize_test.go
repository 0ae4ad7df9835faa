package policy

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func names(f *Facts) string {
	var s []string
	for _, c := range f.Commands {
		s = append(s, c.Name)
	}
	return strings.Join(s, ",")
}

func bash(cmd string) *Facts {
	c, _ := CaseCall(cmd, TestHome, TestProject)
	return Normalize(c)
}

// bash -c recursion goes at least 5 levels deep.
func TestNormalizeDepth(t *testing.T) {
	cmd := "rm -rf /"
	for i := 0; i < 6; i++ {
		cmd = "bash -c " + shQuote(cmd)
	}
	f := bash(cmd)
	last := f.Commands[len(f.Commands)-1]
	if last.Name != "rm" || last.Depth != 6 {
		t.Fatalf("deepest command %s at depth %d, want rm at 6 (%s)", last.Name, last.Depth, names(f))
	}
	r := TestEngine(Builtin(), nil, Options{}).Evaluate(context.Background(), f)
	if r.Decision != Deny {
		t.Fatalf("6-deep rm -rf /: %s", r.Decision)
	}
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// A command that does not parse still meets the rules, and the reason says
// the match was on words.
func TestUnparseableFallsBackToText(t *testing.T) {
	f := bash("rm -rf / 'unterminated")
	if f.ParseError == "" {
		t.Fatal("expected a parse error")
	}
	r := TestEngine(Builtin(), nil, Options{}).Evaluate(context.Background(), f)
	if r.Decision != Deny || !strings.Contains(r.Top().Reason, "did not parse") {
		t.Fatalf("got %s %+v", r.Decision, r.Top())
	}
}

// The examples of the issue.
func TestIssueExamples(t *testing.T) {
	e := TestEngine(Builtin(), nil, Options{})
	for cmd, want := range map[string]Mode{
		"rm -rf ./build":               Audit,
		"rm -rf / --no-preserve-root":  Deny,
		`echo "rm -rf /"`:              "",
		`bash -c "rm -rf ~"`:           Deny,
		"find / -delete":               Deny,
		"git push origin feature/x":    "",
		"git push --force origin main": Deny,
	} {
		if got := evalCommand(e, cmd).Decision; got != want {
			t.Errorf("%q: %q, want %q", cmd, got, want)
		}
	}
}

func TestModesConfig(t *testing.T) {
	r := &Rule{ID: "core.shell:sudo", Mode: Ask}
	for _, tc := range []struct {
		o    Options
		want Mode
	}{
		{Options{}, Ask},
		{Options{Modes: []string{"core.shell=warn"}}, Warn},
		{Options{Modes: []string{"core=deny", "core.shell:sudo=audit"}}, Audit},
		{Options{Modes: []string{"core.shell:sudo=warn"}, Raise: []string{"core.shell=ask"}}, Ask},
		{Options{Raise: []string{"core.shell:sudo=audit"}}, Ask}, // raise never lowers
		{Options{Disabled: []string{"core.shell"}}, Off},
		{Options{Modes: []string{"core.shell:sudo=off"}, Raise: []string{"core=deny"}}, Off},
	} {
		if got := ResolveMode(r, &tc.o); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.o, got, tc.want)
		}
	}
}

func TestPowerShell(t *testing.T) {
	e := TestEngine(Builtin(), nil, Options{})
	for cmd, want := range map[string]Mode{
		`Remove-Item -Recurse -Force C:\`:              Deny,
		`Remove-Item -Recurse -Force $env:USERPROFILE`: Deny,
		`Get-Content ~/.ssh/id_rsa`:                    Deny,
		`Get-ChildItem -Recurse src`:                   "",
		`Remove-Item build\out.txt`:                    "",
	} {
		b, _ := json.Marshal(map[string]string{"command": cmd})
		f := Normalize(Call{Event: "PreToolUse", Tool: "PowerShell", Input: b, Cwd: TestProject, Home: TestHome, Project: TestProject})
		if got := e.Evaluate(context.Background(), f).Decision; got != want {
			t.Errorf("PowerShell %q: %q, want %q", cmd, got, want)
		}
	}
}
