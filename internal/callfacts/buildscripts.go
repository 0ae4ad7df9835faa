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

// cmakeCommand is one COMMAND's words: up to the next keyword in capitals
// (WORKING_DIRECTORY, DEPENDS, VERBATIM, another COMMAND) or the call's
// closing parenthesis.
var cmakeCommand = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bCOMMAND\s+((?:"[^"]*"|[^()"\s]+|\s+)+?)\s*(?:\b[A-Z][A-Z_]{3,}\b|\))`)
})

// cmakeCommands are the shell commands of a CMake file's COMMANDs, with
// $ENV{HOME} as ~.
func cmakeCommands(src string) []string {
	if !strings.Contains(src, "COMMAND") {
		return nil
	}
	var out []string
	for _, m := range cmakeCommand().FindAllStringSubmatch(src, -1) {
		cmd := strings.ReplaceAll(strings.ReplaceAll(m[1], "$ENV{HOME}", "~"), "\n", " ")
		if cmd = strings.TrimSpace(cmd); cmd != "" {
			out = append(out, cmd)
		}
	}
	return out
}
