package gates

import (
	"fmt"
	"regexp"
)

// TestRun reports whether a shell command runs the tests, by the
// configured patterns (gates.test_commands). Invalid patterns are skipped.
func TestRun(command string, patterns []string) bool {
	for _, p := range patterns {
		re, err := regexp.Compile(p)
		if err == nil && re.MatchString(command) {
			return true
		}
	}
	return false
}

// VerifyStopReason is the instruction a blocked Stop gives Claude.
func VerifyStopReason(g *SessionState) string {
	return fmt.Sprintf("verify before stopping: %d change(s) since the last successful test run (last: %s). "+
		"Run the project's tests now and report the result; if they cannot run here, say so to the user and stop.",
		g.Edits, g.LastEdit)
}
