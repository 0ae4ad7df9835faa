package server_test

import (
	"testing"

	"github.com/warden-dev/warden/internal/server"
)

// TestHealthShowsDetailOnlyWithAToken: /health is public (a liveness
// probe needs no token), so it says ok or degraded and nothing else; the
// exact build (which tells an attacker what bugs it has), the uptime and
// the shared store's state are for token holders.
func TestHealthShowsDetailOnlyWithAToken(t *testing.T) {
	r := newAPIRig(t, 100, server.Webhooks{})
	for _, tc := range []struct {
		tok  string
		keys []string
	}{
		{"", []string{"status"}},
		{r.revoked, []string{"status"}},
		{r.token, []string{"status", "version", "uptime_s"}},
	} {
		status, body, _ := r.do("GET", "/health", "", tc.tok, nil)
		got := decode(t, body)
		if status != 200 || got["status"] != "ok" || len(got) != len(tc.keys) {
			t.Errorf("token %q: %d %s; want 200 with exactly %v", tc.tok, status, body, tc.keys)
			continue
		}
		for _, k := range tc.keys {
			if _, ok := got[k]; !ok {
				t.Errorf("token %q: %s lacks %q", tc.tok, body, k)
			}
		}
	}
}
