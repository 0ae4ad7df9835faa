package store

import (
	"testing"
	"time"
)

func TestParseExpiry(t *testing.T) {
	now := time.Date(2026, 11, 29, 10, 30, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"30d":        now.AddDate(0, 0, 30),
		"2w":         now.AddDate(0, 0, 14),
		"12h":        now.Add(12 * time.Hour),
		"2027-01-31": time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC),
	} {
		if got, err := ParseExpiry(in, now); err != nil || !got.Equal(want) {
			t.Errorf("%s: %v %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0d", "-3d", "d", "3x", "1.5d", "2026-01-01", "-1h", "99999d"} {
		if got, err := ParseExpiry(in, now); err == nil {
			t.Errorf("%q accepted as %v", in, got)
		}
	}
}

func TestScopes(t *testing.T) {
	for _, s := range []string{"read", "tasks", "admin", "webhook:alertmanager"} {
		if _, err := ParseScope(s); err != nil {
			t.Error(err)
		}
	}
	for _, s := range []string{"", "Admin", "webhook:", "webhook:github", "write"} {
		if _, err := ParseScope(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
	allows := map[string][]string{ // scope → what it may do, of read, tasks, admin, webhook:alertmanager
		"read":                 {"read"},
		"tasks":                {"read", "tasks", "webhook:alertmanager"},
		"admin":                {"read", "tasks", "admin", "webhook:alertmanager"},
		"":                     {"read", "tasks", "admin", "webhook:alertmanager"},
		"webhook:alertmanager": {"webhook:alertmanager"},
	}
	for scope, ok := range allows {
		tok := APIToken{Scope: scope}
		for _, need := range []string{"read", "tasks", "admin", "webhook:alertmanager"} {
			want := false
			for _, o := range ok {
				want = want || o == need
			}
			if tok.Allows(need) != want {
				t.Errorf("scope %q allows %s: %v, want %v", scope, need, !want, want)
			}
		}
	}
}
