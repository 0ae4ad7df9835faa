package config

import "testing"

func TestClosest(t *testing.T) {
	names := []string{"retention_days", "capture", "disabled_handlers", "context.threshold", "hook.read_timeout_ms"}
	for in, want := range map[string]string{
		"retention_day":       "retention_days",
		"retentiondays":       "retention_days",
		"captur":              "capture",
		"threshold":           "context.threshold",
		"context.treshold":    "context.threshold",
		"read_timeout_ms":     "hook.read_timeout_ms",
		"disabled_handler":    "disabled_handlers",
		"pacing":              "",
		"something_unrelated": "",
	} {
		if got := closest(in, names); got != want {
			t.Errorf("closest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"abc", "abc", 0}} {
		if got := EditDistance(tt.a, tt.b); got != tt.d {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.d)
		}
	}
}
