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
	names := []string{"warden", "w''arden", `w"ar"den`, `war\den`, "w$''arden", `"warden"`, "'warden'", "/usr/local/bin/warden", "pace-maker", `pace\-maker`}
	subs := []string{"off", "on", "safemode off", "breaker reset", "uninstall", "loop stop", "status"}
	wraps := []string{"%s", "sudo %s", "env A=1 %s", "nohup %s &", `bash -c "%s"`, "sh -c '%s'", "eval %s", "true && %s", "(%s)", "echo x | %s", "timeout 5 %s", "$(%s)", "bash -c \"eval '%s'\""}
	flagged := 0
	for _, n := range names {
		for _, s := range subs {
			for _, w := range wraps {
				cmd := fmt.Sprintf(w, n+" "+s)
				if _, hit := selfToggle(cmd, 0); hit {
					flagged++
					if !mayNameWarden(cmd) {
						t.Errorf("prefilter skips %q, which the parser flags", cmd)
					}
				}
				if _, a := selfToggle(cmd, 0); a != func() bool { _, b := SelfToggle(cmd); return b }() {
					t.Errorf("SelfToggle(%q) differs from the parser alone", cmd)
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
