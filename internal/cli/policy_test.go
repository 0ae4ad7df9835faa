package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/policy/corpus"
)

func TestPolicyExplainJSON(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	out, stderr, code := runCLI(t, "policy", "explain", "--json", "--", `bash -c "rm -rf ~"`)
	if code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	var got struct {
		Decision string `json:"decision"`
		Rules    []struct {
			ID, Mode, Reason string
		} `json:"rules"`
		Facts struct {
			Commands []struct {
				Name     string   `json:"name"`
				Depth    int      `json:"depth"`
				Wrappers []string `json:"wrappers"`
			} `json:"commands"`
		} `json:"facts"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if got.Decision != "deny" || len(got.Rules) == 0 || got.Rules[0].ID != "core.shell:rm-root" || got.Rules[0].Mode != "deny" {
		t.Errorf("decision/rules: %+v", got)
	}
	if n := len(got.Facts.Commands); n != 2 || got.Facts.Commands[1].Name != "rm" || got.Facts.Commands[1].Depth != 1 {
		t.Errorf("facts: %+v", got.Facts)
	}

	out, _, _ = runCLI(t, "policy", "explain", "--json", "--call", `{"tool_name":"Write","tool_input":{"file_path":"~/.ssh/config","content":"x"}}`)
	if !strings.Contains(out, `"decision": "deny"`) || !strings.Contains(out, "core.paths:ssh") {
		t.Errorf("--call: %s", out)
	}
	out, _, _ = runCLI(t, "policy", "explain", "--", "git push origin feature/x")
	if !strings.HasPrefix(out, "decision: allow") || !strings.Contains(out, "command: git push origin feature/x") {
		t.Errorf("text explain: %s", out)
	}
	if _, _, code := runCLI(t, "policy", "explain"); code == 0 {
		t.Errorf("explain without input must fail")
	}
}

func TestPolicyListTestLint(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	out, _, code := runCLI(t, "policy", "list")
	if code != 0 || !strings.Contains(out, "core.git:push-force") || !strings.Contains(out, "risky.routine:kill") {
		t.Errorf("list (%d): %s", code, out)
	}
	out, _, code = runCLI(t, "policy", "test")
	if code != 0 || !strings.Contains(out, " 0 failed") {
		t.Errorf("test (%d): %s", code, out)
	}
	out, _, code = runCLI(t, "policy", "test", "../policy/testdata/rules/example.toml")
	if code != 0 || !strings.Contains(out, "7 cases, 7 passed") {
		t.Errorf("test FILE (%d): %s", code, out)
	}
	out, _, code = runCLI(t, "policy", "lint", "../policy/testdata/rules/broken.toml")
	if code != 1 || !strings.Contains(out, "broken.toml:4:") || !strings.Contains(out, "can never fire") {
		t.Errorf("lint (%d): %s", code, out)
	}
}

func TestPolicyListShowsGates(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	t.Chdir(t.TempDir())
	out, _, code := runCLI(t, "policy", "list", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var rows []struct {
		ID, Pack string
		On       bool
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	on := map[string]bool{}
	for _, r := range rows {
		if r.Pack == "gates" {
			on[r.ID] = r.On
		}
	}
	if len(on) != 6 || !on["gates:breaker"] || on["gates:research"] || !on["gates:safemode"] {
		t.Errorf("gates in policy list: %v", on)
	}
}

// --report prints one row per corpus class and a total; explain shows how
// it got there: the constant, the script a pipe fed into a shell.
func TestPolicyReportAndDerivation(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	out, stderr, code := runCLI(t, "policy", "test", "--report")
	if code != 0 {
		t.Fatalf("report (%d): %s%s", code, out, stderr)
	}
	for _, want := range []string{"CLASS", "feed", "indirection", "xargs", "wrappers", "interp", "total",
		"EFFECT", "recursive-delete", "run-fetched", "ZONE", "home-data", "credentials"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = runCLI(t, "policy", "test", "--report", "--json")
	var rep struct {
		Classes []struct {
			Class  string  `json:"class"`
			Risky  int     `json:"risky"`
			Recall float64 `json:"recall"`
		} `json:"classes"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Classes) < 10 {
		t.Fatalf("report --json (%v): %s", err, out)
	}
	if tot := rep.Classes[len(rep.Classes)-1]; tot.Class != "total" || tot.Risky < 300 || tot.Recall < 0.95 {
		t.Errorf("total row: %+v", tot)
	}
	out, _, _ = runCLI(t, "policy", "explain", "--", `S='rm -rf ~'; echo "$S" | sudo bash`)
	for _, want := range []string{"decision: deny", "derivation:", `$S holds "rm -rf ~"`, "bash runs its input"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = runCLI(t, "policy", "explain", "--", `python3 -c "import os; os.system('rm -rf /')"`)
	if !strings.Contains(out, `the python3 code runs "rm -rf /"`) {
		t.Errorf("explain of an interpreter call:\n%s", out)
	}
}

// A call's own cwd is where its relative paths are: explain judges a
// recorded call as the hook did, wherever explain itself runs.
func TestPolicyExplainUsesTheCallsCwd(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	home := t.TempDir()
	t.Setenv("HOME", home)
	call := `{"tool_name":"Bash","tool_input":{"command":"rm -rf Documents"},"cwd":"` + home + `"}`
	out, stderr, code := runCLI(t, "policy", "explain", "--json", "--call", call)
	if code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	var got struct {
		Decision string `json:"decision"`
		Facts    struct {
			Cwd string `json:"cwd"`
		} `json:"facts"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if got.Facts.Cwd != home || got.Decision != "deny" {
		t.Errorf("cwd %q, decision %q; want the call's cwd %q and deny (recursive delete of home data):\n%s", got.Facts.Cwd, got.Decision, home, out)
	}
}

// --report FILE reads a set written as JSON lines, the form blind sets
// take: an ask is met by ask or deny, the personas are the classes and
// the labels get tables; a malformed line names its file and line and
// nothing is run.
func TestPolicyReportReadsJSONLines(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	set := filepath.Join(t.TempDir(), "blind.jsonl")
	lines := `{"cmd": "rm -rf ~/Documents", "want": "deny", "disguise": "plain", "zone": "home-data", "persona": "writer"}
{"cmd": "bash -c 'rm -rf ~/Documents'", "want": "ask", "disguise": "subshell", "zone": "home-data", "persona": "writer"}
{"cmd": "ls -la", "want": "allow", "disguise": "plain", "zone": "project", "persona": "writer"}
{"cmd": "git status", "want": "deny", "disguise": "plain", "zone": "project", "persona": "strict"}
`
	if err := os.WriteFile(set, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI(t, "policy", "test", "--report", "--json", set)
	if code != 1 { // git status is not denied: one case fails
		t.Fatalf("exit %d, want 1: %s%s", code, out, stderr)
	}
	var rep struct {
		Classes []corpus.ClassStats            `json:"classes"`
		Labels  map[string][]corpus.ClassStats `json:"labels"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	row := func(st []corpus.ClassStats, class string) corpus.ClassStats {
		for _, s := range st {
			if s.Class == class {
				return s
			}
		}
		t.Fatalf("no row %q in %+v", class, st)
		return corpus.ClassStats{}
	}
	if w := row(rep.Classes, "writer"); w.Risky != 2 || w.Caught != 2 || w.LookAlikes != 1 || w.FalseFlags != 0 {
		t.Errorf("writer (a deny met by deny, an ask by deny, ls allowed): %+v", w)
	}
	if s := row(rep.Classes, "strict"); s.Risky != 1 || s.Caught != 0 {
		t.Errorf("strict: %+v", s)
	}
	if d := row(rep.Labels["disguise"], "subshell"); d.Risky != 1 || d.Caught != 1 {
		t.Errorf("disguise table: %+v", rep.Labels["disguise"])
	}
	if z := row(rep.Labels["zone"], "home-data"); z.Risky != 2 {
		t.Errorf("zone table: %+v", rep.Labels["zone"])
	}
	out, _, _ = runCLI(t, "policy", "test", "--report", set)
	if !strings.Contains(out, "DISGUISE (AS LABELLED)") || !strings.Contains(out, "ZONE (AS LABELLED)") {
		t.Errorf("table output lacks the label tables:\n%s", out)
	}

	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(lines+`{"cmd": "ls", "want": "maybe"}`+"\n"), 0o644)
	out, stderr, code = runCLI(t, "policy", "test", "--report", bad)
	if code == 0 || !strings.Contains(stderr, "bad.jsonl:5") || !strings.Contains(stderr, "deny, ask or allow") || strings.Contains(out, "CLASS") {
		t.Errorf("malformed set: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// A file a command run through ssh writes is named as the other host
// reads it (in its login directory), not as a path of the project here;
// the zone table's cell, which reads it as this machine's, says so.
func TestPolicyExplainNamesAnotherHostsFile(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	out, stderr, code := runCLI(t, "policy", "explain", "--", "ssh h 'cat > targets'")
	if code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	for _, want := range []string{"redirect: > targets on another host (cat)", "path: targets on another host (write by >)", "(a file of another host, read as this machine's)"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = runCLI(t, "policy", "explain", "--", "ssh glider-base 'cat > targets' <<EOF\n10.0.0.1\nEOF")
	if !strings.Contains(out, "cat writes targets on another host through ssh") {
		t.Errorf("the rule's reason names the project's path:\n%s", out)
	}
}
