package dashboard_test

import (
	"net/http"
	"testing"

	"github.com/warden-dev/warden/internal/server"
)

// TestEncodedSlashInTaskPath: an id with an encoded slash (or another
// byte no id has) names no task: 400 or 404 on the task page and the
// API's task routes, as the daemon composes them, never a 500.
func TestEncodedSlashInTaskPath(t *testing.T) {
	e := newEnv(t)
	for _, id := range []string{"%2f", "a%2fb", "t0%2F", "%2F..%2F", "%00", "%2e%2e", "a%5cb"} {
		for _, route := range []struct{ method, path string }{
			{"GET", "/tasks/" + id}, {"GET", "/api/tasks/" + id}, {"POST", "/api/tasks/" + id + "/cancel"},
		} {
			req, err := http.NewRequest(route.method, e.url(route.path), nil)
			if err != nil {
				t.Fatal(err)
			}
			req.AddCookie(&http.Cookie{Name: server.CookieName, Value: testToken})
			req.Header.Set("Authorization", "Bearer "+testToken)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest && resp.StatusCode != http.StatusNotFound {
				t.Errorf("%s %s: %d; want 400 or 404", route.method, route.path, resp.StatusCode)
			}
		}
	}
}
