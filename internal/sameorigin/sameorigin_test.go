package sameorigin_test

import (
	"net/http/httptest"
	"testing"

	"github.com/warden-dev/warden/internal/sameorigin"
)

// TestCheck: the cases the API's cookie routes and the dashboard's forms
// used to judge differently (Sec-Fetch-Site same-origin with a foreign
// Origin; an Origin without a host) now have one answer.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, site, origin string
		want               sameorigin.Verdict
	}{
		{"no headers (a script)", "", "", sameorigin.Unknown},
		{"same-origin fetch", "same-origin", "", sameorigin.Same},
		{"typed by the user", "none", "", sameorigin.Same},
		{"this origin", "", "http://warden.test:7777", sameorigin.Same},
		{"both, agreeing", "same-origin", "http://warden.test:7777", sameorigin.Same},
		{"cross-site fetch", "cross-site", "", sameorigin.Cross},
		{"same-site, not same-origin", "same-site", "", sameorigin.Cross},
		{"cross-site fetch with this Origin", "cross-site", "http://warden.test:7777", sameorigin.Cross},
		{"same-origin fetch with another Origin", "same-origin", "https://evil.example", sameorigin.Cross},
		{"another Origin", "", "https://evil.example", sameorigin.Cross},
		{"another port", "", "http://warden.test:8888", sameorigin.Cross},
		{"sandboxed page", "", "null", sameorigin.Cross},
		{"Origin without a host", "", "http://", sameorigin.Cross},
		{"unparsable Origin", "", "http://[::1", sameorigin.Cross},
	} {
		r := httptest.NewRequest("POST", "http://warden.test:7777/tasks", nil)
		if tc.site != "" {
			r.Header.Set("Sec-Fetch-Site", tc.site)
		}
		if tc.origin != "" {
			r.Header.Set("Origin", tc.origin)
		}
		if got := sameorigin.Check(r); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
