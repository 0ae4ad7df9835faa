package replay

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/warden-dev/warden/internal/policy"
)

// CaseOf turns a recorded call into a rule test case's input, moved into
// the fixed environment rule tests run in (home /home/dev, project
// /home/dev/proj): the project's path and the home's in the input become
// theirs, so the case means the same on every machine. A Bash call becomes
// its command, any other call its payload.
func CaseOf(c policy.Call) policy.TestCase {
	move := func(s string) string {
		if c.Project != "" && c.Project != "/" {
			s = replacePath(s, c.Project, policy.TestProject)
		}
		if c.Home != "" && c.Home != "/" {
			s = replacePath(s, c.Home, policy.TestHome)
		}
		return s
	}
	if c.Tool == "Bash" {
		var in struct {
			Command string `json:"command"`
		}
		if json.Unmarshal(c.Input, &in) == nil && in.Command != "" && move(c.Cwd) == policy.TestProject {
			return policy.TestCase{Command: move(in.Command)}
		}
	}
	payload := map[string]any{"tool_name": c.Tool, "tool_input": json.RawMessage(move(string(c.Input)))}
	if c.Event != "" && c.Event != "PreToolUse" {
		payload["hook_event_name"] = c.Event
	}
	if cwd := move(c.Cwd); cwd != policy.TestProject && cwd != "" {
		payload["cwd"] = cwd
	}
	b, _ := json.Marshal(payload)
	return policy.TestCase{Call: string(b)}
}

// replacePath replaces dir where it stands as a whole path or a path's
// start (followed by /, a quote, a space or the end), not inside a longer
// name (/home/al in /home/alice).
func replacePath(s, dir, with string) string {
	dir = filepath.Clean(dir)
	var b strings.Builder
	for {
		i := strings.Index(s, dir)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(dir)
		if end == len(s) || strings.ContainsRune("/\"' \t\n;:)`\\", rune(s[end])) {
			b.WriteString(s[:i])
			b.WriteString(with)
		} else {
			b.WriteString(s[:end])
		}
		s = s[end:]
	}
}

// TOMLCase is a test case as the lines of a rule file, after a comment
// saying where it came from.
func TOMLCase(tc policy.TestCase, comment string) string {
	var b strings.Builder
	for _, l := range strings.Split(comment, "\n") {
		fmt.Fprintf(&b, "# %s\n", l)
	}
	b.WriteString("[[case]]\n")
	if tc.Command != "" {
		fmt.Fprintf(&b, "command = %s\n", tomlString(tc.Command))
	} else {
		fmt.Fprintf(&b, "call = %s\n", tomlString(tc.Call))
	}
	fmt.Fprintf(&b, "expect = %s\n", tomlString(tc.Expect))
	if tc.Rule != "" {
		fmt.Fprintf(&b, "rule = %s\n", tomlString(tc.Rule))
	}
	return b.String()
}

// tomlString is s as a TOML basic string: quotes, backslashes and control
// characters escaped the way TOML reads them (\uXXXX, not Go's \x).
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
