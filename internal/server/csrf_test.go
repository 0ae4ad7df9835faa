package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/server"
)

// A POST authenticated by the session cookie alone must come from the
// daemon's own origin; another site's form (its Origin, or the browser's
// Sec-Fetch-Site: cross-site) is refused with 403 and creates nothing. A
// bearer token is not a browser's ambient credential: its requests pass
// whatever their Origin, and reads pass with the cookie.
func TestCookieMutationsMustComeFromThisOrigin(t *testing.T) {
	r := newAPIRig(t, 100, server.Webhooks{})
	host := strings.TrimPrefix(r.ts.URL, "http://")
	body := func(n string) string { return `{"project":"` + r.project + `","prompt":"csrf ` + n + `"}` }
	send := func(method, path, body string, hdr map[string]string) int {
		t.Helper()
		req, err := http.NewRequest(method, r.ts.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	cookie := server.CookieName + "=" + url.QueryEscape(r.token)
	for _, c := range []struct {
		name string
		hdr  map[string]string
		want int
	}{
		{"cookie, another site's Origin", map[string]string{"Cookie": cookie, "Origin": "https://evil.example"}, 403},
		{"cookie, cross-site fetch", map[string]string{"Cookie": cookie, "Sec-Fetch-Site": "cross-site", "Origin": r.ts.URL}, 403},
		{"cookie, same-site but not same-origin", map[string]string{"Cookie": cookie, "Sec-Fetch-Site": "same-site"}, 403},
		{"cookie, Origin null (sandboxed page)", map[string]string{"Cookie": cookie, "Origin": "null"}, 403},
		{"cookie, same-origin fetch but another site's Origin", map[string]string{"Cookie": cookie, "Sec-Fetch-Site": "same-origin", "Origin": "https://evil.example"}, 403},
		{"cookie, neither header", map[string]string{"Cookie": cookie}, 403},
		{"cookie, this origin", map[string]string{"Cookie": cookie, "Origin": r.ts.URL}, 201},
		{"cookie, same-origin fetch", map[string]string{"Cookie": cookie, "Sec-Fetch-Site": "same-origin"}, 201},
		{"bearer, another site's Origin", map[string]string{"Authorization": "Bearer " + r.token, "Origin": "https://evil.example"}, 201},
	} {
		before := r.taskCount()
		got := send("POST", "/api/tasks", body(c.name), c.hdr)
		if got != c.want {
			t.Errorf("%s: status %d, want %d", c.name, got, c.want)
		}
		created := r.taskCount() - before
		if (c.want == 201) != (created == 1) {
			t.Errorf("%s: %d tasks created", c.name, created)
		}
	}
	// Cancelling is a mutation too.
	if got := send("POST", "/api/tasks/nope/cancel", "", map[string]string{"Cookie": cookie, "Origin": "https://evil.example"}); got != 403 {
		t.Errorf("cross-site cancel: %d, want 403", got)
	}
	// Reads with the cookie pass from anywhere (a cross-site page cannot
	// read the answer), and a bad cookie is still a 401 before any of this.
	if got := send("GET", "/api/tasks", "", map[string]string{"Cookie": cookie, "Sec-Fetch-Site": "cross-site"}); got != 200 {
		t.Errorf("cross-site read: %d, want 200", got)
	}
	if got := send("POST", "/api/tasks", body("bad"), map[string]string{"Cookie": server.CookieName + "=wdn_nope", "Origin": "https://" + host}); got != 401 {
		t.Errorf("bad cookie: %d, want 401", got)
	}
}
