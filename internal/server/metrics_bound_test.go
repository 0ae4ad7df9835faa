package server_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/server"
)

// TestMetricsMethodLabelIsBounded: the request counter is fed by
// unauthenticated requests, so a made-up method must not become a label
// value of its own (each one would be a new series, kept forever).
func TestMetricsMethodLabelIsBounded(t *testing.T) {
	r := newAPIRig(t, 100, server.Webhooks{})
	for i := range 20000 {
		r.do(fmt.Sprintf("M%05d", i), "/health", "", "", nil)
	}
	status, body, _ := r.do("GET", "/metrics", "", r.token, nil)
	if status != 200 {
		t.Fatalf("metrics: %d %s", status, body)
	}
	lines := 0
	for _, l := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(l, "warden_http_requests_total{") {
			lines++
		}
	}
	if lines > 50 {
		t.Fatalf("%d request-counter series after 20,000 made-up methods; want a bounded handful", lines)
	}
	if !strings.Contains(string(body), `method="OTHER"`) {
		t.Errorf(`made-up methods are not counted as method="OTHER"`)
	}
}
