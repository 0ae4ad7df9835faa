package judge

import (
	"strings"
	"testing"
)

func TestCheckIntent(t *testing.T) {
	core := []string{"src/", "lib/", "core/", "source/", "libraries/", "kernel/"}
	prompts := []string{
		"(message 6) you can skip the tests for the logging tweak",
		"Please fix the off-by-one in the tokenizer.",
		"Also, the config loader crashes on empty files.",
		"For the config loader fix: no need to write tests for this one, I'll add them later.",
		"Go ahead.",
		"And keep the public API unchanged.",
	}
	declared := "I'll fix the crash now.\n\n**Intent**\n- **FILE:** `src/config/loader.go`\n- **CHANGES:** return an empty Config when the file is empty instead of calling Decode\n- **GOAL:** the loader no longer crashes on empty files (user's second request)\n"
	cases := []struct {
		name    string
		file    string
		texts   []string
		ok      bool
		problem string // substring of the problem
	}{
		{"non-core declared", "/p/cmd/tool/main.go",
			[]string{"FILE: cmd/tool/main.go\nCHANGES: print the version flag\nGOAL: users asked for --version"}, true, ""},
		{"undeclared", "/p/cmd/tool/main.go",
			[]string{"Let me fix that quickly."}, false, "missing: FILE, CHANGES, GOAL"},
		{"declaration names another file", "/p/cmd/tool/main.go",
			[]string{"FILE: cmd/tool/flags.go\nCHANGES: x\nGOAL: y"}, false, "FILE naming cmd/tool/main.go"},
		{"goal missing", "/p/cmd/tool/main.go",
			[]string{"FILE: main.go\nCHANGES: add a flag"}, false, "missing: GOAL"},
		{"declared in the message before the tool call", "/p/cmd/tool/main.go",
			[]string{"FILE: cmd/tool/main.go\nCHANGES: print the version\nGOAL: --version", ""}, true, ""},
		{"core path without test declaration", "/p/src/config/loader.go",
			[]string{declared}, false, "declares no test coverage"},
		{"core path with test declaration", "/p/src/config/loader.go",
			[]string{declared + "- Test coverage: TestLoadEmptyFile in src/config/loader_test.go\n"}, true, ""},
		{"core path, 'none' without a quote", "/p/src/config/loader.go",
			[]string{declared + "Test coverage: none\n"}, false, "declares no test coverage"},
		{"core path, true quote", "/p/src/config/loader.go",
			[]string{declared + "Test coverage: none — user said \"no need to write tests for this one\"\n"}, true, ""},
		{"core path, true quote in curly quotes and other case", "/p/src/config/loader.go",
			[]string{declared + "Skip tests: “No need to write tests for this one, I'll add them later.”\n"}, true, ""},
		{"core path, paraphrased quote", "/p/src/config/loader.go",
			[]string{declared + "Test coverage: none — user said \"tests are not needed for this fix\"\n"}, false, "not in the user's last 5 messages"},
		{"core path, invented quote", "/p/src/config/loader.go",
			[]string{declared + "Test coverage: skipped, user said \"don't bother testing\"\n"}, false, "word for word"},
		{"core path, quote from message 6", "/p/src/config/loader.go",
			[]string{declared + "Test coverage: none — user said \"you can skip the tests\"\n"}, false, "not in the user's last 5 messages"},
		{"core path, quote too short", "/p/src/config/loader.go",
			[]string{declared + "Test coverage: none — user said \"Go ahead\"\n"}, false, "not in the user's last 5"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := CheckIntent(IntentInput{FilePath: c.file, ProjectDir: "/p", AssistantTexts: c.texts,
				UserPrompts: prompts, CorePaths: core})
			if r.OK != c.ok {
				t.Fatalf("OK = %v, want %v; problem: %s", r.OK, c.ok, r.Problem)
			}
			if !c.ok && !strings.Contains(r.Problem, c.problem) {
				t.Errorf("problem %q does not say %q", r.Problem, c.problem)
			}
			if !c.ok && !strings.Contains(r.Problem, "FILE: ") {
				t.Errorf("the denial does not teach the format: %q", r.Problem)
			}
		})
	}
}

func TestIsSourceIsCore(t *testing.T) {
	exts := []string{".go", "py"}
	if !IsSource("/p/a.go", exts) || !IsSource("/p/a.PY", exts) || IsSource("/p/README.md", exts) || IsSource("/p/Makefile", exts) {
		t.Error("IsSource")
	}
	core := []string{"src/", "lib"}
	for path, want := range map[string]bool{"/p/src/a.go": true, "/p/pkg/lib/x.go": true, "/p/cmd/x.go": false, "/p/srcs/x.go": false, "/p/library/x.go": false} {
		if got := IsCore(path, "/p", core); got != want {
			t.Errorf("IsCore(%s) = %v, want %v", path, got, want)
		}
	}
}
