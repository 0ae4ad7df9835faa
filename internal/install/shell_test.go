package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestQuoteSplitRoundTrip(t *testing.T) {
	for _, s := range []string{
		"plain", "/a b/c", "it's", `"dq" $HOME ~ \x`, "", "a'b'c''", "new\nline", "tab\there; rm -rf /",
	} {
		for _, q := range []string{ShellQuote(s), singleQuote(s)} {
			words, err := splitWords(q+" next", nil)
			if err != nil || len(words) != 2 || words[0].text != s || words[1].text != "next" {
				t.Errorf("%q quoted as %s splits to %+v (%v)", s, q, words, err)
			}
		}
	}
	if ShellQuote("/home/me/.warden/bin/warden") != "/home/me/.warden/bin/warden" {
		t.Error("a safe path was quoted")
	}
}

func TestSplitWordsExpansion(t *testing.T) {
	env := map[string]string{"HOME": "/h", "X": "x y"}
	lookup := func(n string) (string, bool) { v, ok := env[n]; return v, ok }
	cases := []struct {
		line  string
		words []string
		unset bool
		dyn   bool
	}{
		{`~/bin/a.sh --f`, []string{"/h/bin/a.sh", "--f"}, false, false},
		{`"$X"/a '$X' ${X}b`, []string{"x y/a", "$X", "x yb"}, false, false},
		{`$NOPE/a`, []string{"/a"}, true, false},
		{`a\ b "c\"d" e # comment`, []string{"a b", `c"d`, "e"}, false, false},
		{`a && b | c`, []string{"a"}, false, false},
		{`$(which x) y`, []string{"$"}, false, true}, // stops at "(": only a shell knows
		{`~user/x`, []string{"~user/x"}, false, false},
	}
	for _, c := range cases {
		words, err := splitWords(c.line, lookup)
		if err != nil {
			t.Errorf("%s: %v", c.line, err)
			continue
		}
		var got []string
		unset, dyn := false, false
		for _, w := range words {
			got = append(got, w.text)
			unset = unset || len(w.unset) > 0
			dyn = dyn || w.dynamic
		}
		if strings.Join(got, "|") != strings.Join(c.words, "|") || unset != c.unset || dyn != c.dyn {
			t.Errorf("%s: words %q unset %v dynamic %v, want %q %v %v", c.line, got, unset, dyn, c.words, c.unset, c.dyn)
		}
	}
	if _, err := splitWords(`echo 'open`, nil); err == nil {
		t.Error("unbalanced quote not reported")
	}
}

func TestParseWarden(t *testing.T) {
	for line, sub := range map[string]string{
		"/x/.warden/bin/warden hook --harness claude": "hook",
		"'/my dir/warden' hook":                       "hook",
		"FOO=1 warden statusline --wrap 'a b'":        "statusline",
		`"C:/tools/warden.exe" hook`:                  "hook",
	} {
		inv, ok := parseWarden(line)
		if !ok || inv.sub() != sub {
			t.Errorf("%s: ok=%v sub=%q, want %q", line, ok, inv.sub(), sub)
		}
	}
	for _, line := range []string{"wardenx hook", "/bin/warden-helper hook", "echo warden hook", ""} {
		if _, ok := parseWarden(line); ok {
			t.Errorf("%q taken for warden", line)
		}
	}
	inv, _ := parseWarden("A=1 /old/warden statusline --wrap 'x'")
	if got := inv.withProgram("/new dir/warden"); got != "A=1 '/new dir/warden' statusline --wrap 'x'" {
		t.Errorf("withProgram = %s", got)
	}
}

func TestCheckLine(t *testing.T) {
	dir := t.TempDir()
	binDir := filepath.Join(dir, "bin")
	os.MkdirAll(binDir, 0o755)
	os.WriteFile(filepath.Join(binDir, "tool"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "noexec.sh"), []byte("#!/bin/sh\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "script.py"), []byte(""), 0o644)
	env := Env{Cwd: dir, Getenv: func(n string) (string, bool) {
		switch n {
		case "PATH":
			return binDir, true
		case "HOME":
			return dir, true
		}
		return "", false
	}}
	for line, want := range map[string]string{
		"tool --x":                              "",
		"tol --x":                               "tol is not on PATH",
		"$CLAUDE_PROJECT_DIR/bin/tool":          "",
		"~/bin/tool":                            "",
		"~/bin/tool2":                           "does not exist",
		"./noexec.sh":                           "is not executable",
		"FOO=1 exec env -i BAR=2 tool":          "",
		"nohup tol":                             "tol is not on PATH",
		"cd $CLAUDE_PROJECT_DIR && ./whatever":  "",
		"python3 script.py":                     "python3 is not on PATH", // the program comes first
		"tool -c 'inline'":                      "",
		"'unterminated":                         "unbalanced quotes",
		"   ":                                   "the command is empty",
		"$(command -v x) --y":                   "",
		"\"$CLAUDE_PROJECT_DIR\"/bin/tool hook": "",
	} {
		reason, _ := env.checkLine(line)
		if want == "" && reason != "" || want != "" && !strings.Contains(reason, want) {
			t.Errorf("%q: reason %q, want %q", line, reason, want)
		}
	}
	// The script check itself, with an interpreter that is on PATH.
	os.WriteFile(filepath.Join(binDir, "python3"), []byte("#!/bin/sh\n"), 0o755)
	if r, _ := env.checkLine("python3 -u missing.py"); !strings.Contains(r, "the script missing.py does not exist") {
		t.Errorf("missing script: %q", r)
	}
	if r, _ := env.checkLine("python3 script.py"); r != "" {
		t.Errorf("existing script: %q", r)
	}
	if r, _ := env.checkLine("python3 -c 'print(1)'"); r != "" {
		t.Errorf("inline code: %q", r)
	}
	if r, unsure := env.checkLine("$PLUGIN/x.sh"); r == "" || !unsure {
		t.Errorf("unset variable: %q unsure=%v", r, unsure)
	}
}
