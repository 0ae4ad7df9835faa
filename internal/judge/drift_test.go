package judge

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestIsPlanFile(t *testing.T) {
	const claude = "/home/dev/.claude"
	cases := map[string]bool{
		"/home/dev/.claude/plans/refactor-auth-flow.md":  true,
		"/home/dev/.claude/plans/2026/jolly-otter.md":    true,
		"/home/dev/.claude/plans/../settings.json":       false,
		"/home/dev/.claude/plans":                        false,
		"/home/dev/.claude/plansx/a.md":                  false,
		"/home/dev/.claude/CLAUDE.md":                    false,
		"/home/dev/acme/plans/q3.md":                     false,
		"/home/dev/acme/.claude/plans/x.md":              false,
		"plans/relative.md":                              false,
		"/home/dev/.claude/plans/nested/../still-in.md":  true,
		"/home/dev/.claude/projects/-home-dev-acme/a.md": false,
	}
	for path, want := range cases {
		if got := IsPlanFile(path, claude); got != want {
			t.Errorf("IsPlanFile(%q) = %v, want %v", path, got, want)
		}
	}
	if IsPlanFile("/x/plans/a.md", "") {
		t.Error("no claude dir: nothing is a plan file")
	}
}

func TestIsClaudeMD(t *testing.T) {
	cases := map[string]bool{
		"/home/dev/acme/CLAUDE.md":            true,
		"/home/dev/acme/.claude/CLAUDE.md":    true,
		"/home/dev/.claude/CLAUDE.md":         true,
		"/home/dev/acme/CLAUDE.local.md":      true,
		"/home/dev/acme/pkg/api/CLAUDE.md":    true,
		"/home/dev/acme/claude.md":            true,
		"/home/dev/acme/CLAUDE.md.bak":        false,
		"/home/dev/acme/docs/CLAUDE-notes.md": false,
		"/home/dev/acme/README.md":            false,
		"/home/dev/acme/AGENTS.md":            false,
	}
	for path, want := range cases {
		if got := IsClaudeMD(path); got != want {
			t.Errorf("IsClaudeMD(%q) = %v, want %v", path, got, want)
		}
	}
}

func TestStyleDiffOnRealEdits(t *testing.T) {
	cases := []struct {
		name               string
		old, new           string
		keepIndent         bool
		mostly, overwhelms bool
	}{
		{"go block re-indented with spaces, nothing else",
			"func load(p string) error {\n\tf, err := os.Open(p)\n\tif err != nil {\n\t\treturn err\n\t}\n\tdefer f.Close()\n\treturn decode(f)\n}",
			"func load(p string) error {\n    f, err := os.Open(p)\n    if err != nil {\n        return err\n    }\n    defer f.Close()\n    return decode(f)\n}",
			false, true, true},
		{"prettier: quotes and semicolons on three lines",
			"import x from 'x'\nconst a = 'b'\nexport default a",
			"import x from \"x\";\nconst a = \"b\";\nexport default a;",
			false, true, false},
		{"a real change of logic",
			"if n > 10 {\n\treturn ErrTooMany\n}",
			"if n > limit {\n\treturn fmt.Errorf(\"%d items: %w\", n, ErrTooMany)\n}",
			false, false, false},
		{"one real change amid re-formatted lines",
			"const opts = {\n  retries: 3,\n  timeout: 1000,\n  verbose: false,\n  mode: 'fast'\n}",
			"const opts = {\n    retries: 5,\n    timeout: 1000,\n    verbose: false,\n    mode: \"fast\",\n}",
			false, true, false},
		{"a real edit with one incidental re-indented line",
			"\tx := parse(a)\n\t  y := x + 1\n\treturn y",
			"\tx, err := parse(a)\n\tif err != nil {\n\t\treturn 0, err\n\t}\n\ty := x + 1\n\treturn y, nil",
			false, false, false},
		{"a long call re-wrapped over several lines",
			"result = compute(alpha, beta, gamma, delta)",
			"result = compute(\n    alpha,\n    beta,\n    gamma,\n    delta,\n)",
			false, true, false},
		{"python: indentation is syntax, not formatting",
			"for x in xs:\n    total += x\nprint(total)\nreturn total",
			"for x in xs:\n    total += x\n    print(total)\n    return total",
			true, false, false},
		{"blank lines sprinkled through a function",
			"a()\nb()\nc()\nd()",
			"a()\n\nb()\n\nc()\n\nd()",
			false, false, false},
		{"yaml values re-quoted, indentation kept",
			"name: 'ci'\non: 'push'\njobs:\n  test:\n    runs-on: 'ubuntu-latest'\n    timeout-minutes: 10",
			"name: \"ci\"\non: \"push\"\njobs:\n  test:\n    runs-on: \"ubuntu-latest\"\n    timeout-minutes: 10",
			true, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := StyleDiff([]EditPair{{Old: c.old, New: c.new}}, c.keepIndent)
			if s.Mostly() != c.mostly || s.Overwhelming() != c.overwhelms {
				t.Errorf("%+v: mostly %v overwhelming %v, want %v %v", s, s.Mostly(), s.Overwhelming(), c.mostly, c.overwhelms)
			}
		})
	}
}

func TestStyleDiffSumsMultiEdit(t *testing.T) {
	in := json.RawMessage(`{"file_path":"/p/a.js","edits":[
		{"old_string":"let a = 'x'\nlet b = 'y'","new_string":"let a = \"x\";\nlet b = \"y\";"},
		{"old_string":"call(a, b)","new_string":"call(a, b, c)"}]}`)
	s := StyleDiff(EditPairs("MultiEdit", in), false)
	if s.Changed != 6 || s.Formatting != 4 || !s.Mostly() {
		t.Errorf("%+v, want 4 of 6 lines formatting, mostly", s)
	}
}

func TestFormattingAsked(t *testing.T) {
	cases := map[string]bool{
		"Please run gofmt and fix the lint warnings":        true,
		"Reformat the config loader, it's a mess":           true,
		"Fix the indentation in main.py":                    true,
		"apply prettier to the web/ folder":                 true,
		"Follow the code style of the rest of the package":  true,
		"Add more information to the error messages":        false,
		"Make the parser faster on big inputs":              false,
		"The platform transformation step should be public": false,
	}
	for p, want := range cases {
		if got := FormattingAsked(p); got != want {
			t.Errorf("FormattingAsked(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestDriftChangeShowsWhatIsReplaced(t *testing.T) {
	cur := "# Rules\n- Always run the tests before committing.\n- Never push to main.\n"
	w := DriftChange("Write", json.RawMessage(`{"file_path":"/p/CLAUDE.md","content":"# Rules\n- Never push to main.\n"}`), cur, true, 4000)
	if !strings.Contains(w, "Always run the tests") || !strings.Contains(w, "is replaced by") {
		t.Errorf("a Write over an existing file must show its old content:\n%s", w)
	}
	e := DriftChange("Edit", json.RawMessage(`{"file_path":"/p/CLAUDE.md","old_string":"- Never push to main.\n","new_string":"- Push to main when in a hurry.\n"}`), cur, true, 4000)
	if !strings.Contains(e, "The whole file after the change") || !strings.Contains(e, "Always run the tests before committing.\n- Push to main when in a hurry.") {
		t.Errorf("an Edit shows the file after it:\n%s", e)
	}
	n := DriftChange("Write", json.RawMessage(`{"file_path":"/p/plan.md","content":"1. step"}`), "", false, 4000)
	if !strings.Contains(n, "A new file") || !strings.Contains(n, "1. step") {
		t.Errorf("new file:\n%s", n)
	}
}
