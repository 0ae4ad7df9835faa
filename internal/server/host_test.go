package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/server"
)

// TestHostHeaderMustNameThisDaemon: a web page on evil.example whose name
// is made to resolve to 127.0.0.1 (DNS rebinding) reaches the daemon with
// Host: evil.example:PORT. Every route refuses such a request with 421;
// the daemon's own address, localhost on its port, and the names in
// serve.hosts are served.
func TestHostHeaderMustNameThisDaemon(t *testing.T) {
	r := newAPIRigHosts(t, 100, server.Webhooks{GitHubSecret: ghSecret}, []string{"warden.example.org"})
	u, _ := url.Parse(r.ts.URL)
	port := u.Port()
	get := func(method, path, host, tok string) (int, string) {
		status, body, _ := r.do(method, path, "", tok, map[string]string{"Host": host})
		return status, string(body)
	}
	for _, host := range []string{u.Host, "localhost:" + port, "warden.example.org", "warden.example.org:443"} {
		if code, body := get("GET", "/health", host, ""); code != 200 {
			t.Errorf("Host %q: %d %s; want 200", host, code, body)
		}
	}
	for _, host := range []string{"evil.example:" + port, "evil.example", "localhost.evil.example:" + port, "127.0.0.1:1", "10.0.0.1:" + port} {
		for _, route := range []struct{ method, path, tok string }{
			{"GET", "/health", ""}, {"GET", "/api/tasks", r.token}, {"GET", "/metrics", r.token},
			{"POST", "/webhook/github", ""}, {"GET", "/", r.token}, {"GET", "/nope", ""},
		} {
			code, body := get(route.method, route.path, host, route.tok)
			if code != http.StatusMisdirectedRequest || !strings.Contains(body, "serve.hosts") {
				t.Errorf("%s %s with Host %q: %d %s; want 421 naming serve.hosts", route.method, route.path, host, code, body)
			}
		}
	}
}
