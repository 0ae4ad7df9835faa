package gates

import (
	"fmt"
	"testing"
)

func TestLoopStopIsUserOnly(t *testing.T) {
	for cmd, want := range map[string]bool{
		"warden loop stop":                                 true,
		`bash -c "cd /tmp && warden loop stop"`:            true,
		"sudo warden loop stop":                            true,
		"warden loop status":                               false,
		`warden loop start "task" --check "go test ./..."`: false,
		"warden loop start stop --criteria x":              false,
	} {
		if _, got := SelfToggle(cmd); got != want {
			t.Errorf("SelfToggle(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// TestSelfTogglePrefilterMissesNothing: the cheap text test in front of the
// parser must pass every command the parser would flag, however it is
// quoted, escaped or nested; commands built from obfuscation pieces are
// checked against the parser run without the prefilter.
func TestSelfTogglePrefilterMissesNothing(t *testing.T) {
	names := append([]string{"warden", "w''arden", `w"ar"den`, `war\den`, "w$''arden", `"warden"`, "'warden'", "/usr/local/bin/warden", "pace-maker", `pace\-maker`}, builtNames...)
	subs := []string{"off", "on", "safemode off", "breaker reset", "uninstall", "loop stop", "status", "s-", "rb-", "tempo off", "disable"}
	wraps := []string{"%s", "sudo %s", "env A=1 %s", "nohup %s &", `bash -c "%s"`, "sh -c '%s'", "eval %s", "true && %s", "(%s)", "echo x | %s", "timeout 5 %s", "$(%s)", "bash -c \"eval '%s'\""}
	// The program named through a command substitution or a variable
	// holding one: $(which warden) off.
	subst := []string{"$(which %s)", `"$(command -v %s)"`, "`which %s`", "$(type -P %s)", "$(readlink -f $(which %s))", "W=$(which %s); $W", `x=$(command -v %s) && "$x"`}
	flagged := 0
	for _, n := range names {
		for _, s := range subs {
			for _, w := range wraps {
				cmd := fmt.Sprintf(w, n+" "+s)
				if _, hit := selfToggle(cmd); hit {
					flagged++
					if !mayNameWarden(cmd) {
						t.Errorf("prefilter skips %q, which the parser flags", cmd)
					}
				}
				if _, a := selfToggle(cmd); a != func() bool { _, b := SelfToggle(cmd); return b }() {
					t.Errorf("SelfToggle(%q) differs from the parser alone", cmd)
				}
			}
			for _, sw := range subst {
				for _, w := range wraps {
					cmd := fmt.Sprintf(w, fmt.Sprintf(sw, n)+" "+s)
					_, hit := selfToggle(cmd)
					if hit {
						flagged++
						if !mayNameWarden(cmd) {
							t.Errorf("prefilter skips %q, which the parser flags", cmd)
						}
					}
					if _, b := SelfToggle(cmd); b != hit {
						t.Errorf("SelfToggle(%q) differs from the parser alone", cmd)
					}
				}
			}
		}
	}
	if flagged < 100 {
		t.Fatalf("only %d generated commands were flagged: the generator no longer exercises the parser", flagged)
	}
	for _, cmd := range []string{"ls -la", "go test ./...", "git status", "rm -rf build"} {
		if mayNameWarden(cmd) {
			t.Errorf("prefilter passes %q", cmd)
		}
	}
}

// TestSelfToggleThroughSubstitution: a command substitution (or a variable
// holding one) that resolves to warden runs warden; naming warden in an
// argument, or a user-allowed subcommand, is not a toggle.
func TestSelfToggleThroughSubstitution(t *testing.T) {
	for cmd, want := range map[string]bool{
		"$(which warden) off":                         true,
		`"$(command -v warden)" disable`:              true,
		"`which warden` off":                          true,
		"$(type -P warden) safemode off":              true,
		`"$(which warden)" breaker reset`:             true,
		"bash -c '$(which warden) off'":               true,
		"sh -c \"`command -v warden` uninstall\"":     true,
		"$(command -v pace-maker) off":                true,
		"W=$(which warden); $W off":                   true,
		`x=$(command -v warden) && "$x" safemode off`: true,
		"$(readlink -f $(which warden)) off":          true,
		"sudo $(which warden) off":                    true,
		`eval "$(which warden) off"`:                  true,
		"which warden":                                false,
		"$(which warden) status":                      false,
		`"$(command -v warden)" --version`:            false,
		"ls -l $(which warden)":                       false,
		"W=$(which warden); $W status":                false,
		"$(which go) test ./... && echo off":          false,
		"$(cat warden-notes.txt) off":                 false,
		"file $(which warden) off":                    false,
		"$(which w''arden) off":                       true,
		`$(command -v war\den) safemode off`:          true,
	} {
		if _, got := SelfToggle(cmd); got != want {
			t.Errorf("SelfToggle(%q) = %v, want %v", cmd, got, want)
		}
	}
}
