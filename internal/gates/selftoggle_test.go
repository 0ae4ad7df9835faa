package gates

import "testing"

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
