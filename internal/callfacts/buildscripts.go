package callfacts

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// Build files whose commands the build tool runs on its own: CMake runs
// execute_process(COMMAND …) while it configures and add_custom_command /
// add_custom_target's COMMANDs while it builds. Written by the line, they
// are judged as if run now, like a Makefile's recipes or a package's
// install scripts. (Gradle's build files are Groovy or Kotlin code,
// loadedByTools; Cargo's build.rs is read with the compiled sources.)

// cmakeFile: a CMake list or module.
func cmakeFile(p string) bool {
	b := path.Base(p)
	return b == "CMakeLists.txt" || strings.HasSuffix(b, ".cmake")
}

// cmakeEnd ends a COMMAND's words: the next keyword in capitals
// (WORKING_DIRECTORY, DEPENDS, VERBATIM, another COMMAND) or the call's
// closing parenthesis.
var cmakeEnd = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\s[A-Z][A-Z_]{3,}\b|\)`)
})

// cmakeCommands are the shell commands of a CMake file's COMMANDs, with
// $ENV{HOME} as ~.
func cmakeCommands(src string) []string {
	var out []string
	for rest := src; ; {
		i := strings.Index(rest, "COMMAND ")
		if i < 0 {
			return out
		}
		if i > 0 && identByte(rest[i-1]) {
			rest = rest[i+len("COMMAND "):] // PRE_COMMAND, a name ending in COMMAND
			continue
		}
		rest = rest[i+len("COMMAND "):]
		cmd := rest
		if loc := cmakeEnd().FindStringIndex(rest); loc != nil {
			cmd = rest[:loc[0]]
		}
		cmd = strings.ReplaceAll(strings.ReplaceAll(cmd, "$ENV{HOME}", "~"), "\n", " ")
		if cmd = strings.TrimSpace(cmd); cmd != "" {
			out = append(out, cmd)
		}
	}
}

// goGenerate judges a Go file's //go:generate directives as if go
// generate ran them now: each is a command run in the file's directory.
func (n *normalizer) goGenerate(p, src string) {
	cwd := n.cwd
	n.cwd = path.Dir(p)
	for _, l := range strings.Split(src, "\n") {
		if cmd, ok := strings.CutPrefix(strings.TrimSpace(l), "//go:generate "); ok && strings.TrimSpace(cmd) != "" {
			n.derive("the text written to %s runs when go generate runs: %q", p, short(cmd))
			n.shell(cmd, 2, []string{"runs from " + path.Base(p)}, nil)
		}
	}
	n.cwd = cwd
}
