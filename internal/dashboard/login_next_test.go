package dashboard_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestLoginNextStaysOnThisOrigin: after logging in, the browser goes to
// next only when next is a path of this site as a browser will read it.
// Browsers drop TAB, CR and LF anywhere in a URL and read a backslash as
// a slash, so "/<TAB>/evil.example" is "//evil.example": another host.
func TestLoginNextStaysOnThisOrigin(t *testing.T) {
	e := newEnv(t)
	cases := []struct{ next, want string }{
		{"/decisions", "/decisions"},
		{"/tasks?status=queued", "/tasks?status=queued"},
		{"/sessions/abc", "/sessions/abc"},
		{"", "/"},
		{"decisions", "/"},
		{"//evil.example/", "/"},
		{"///evil.example/", "/"},
		{"/\\evil.example/", "/"},
		{"\\\\evil.example/", "/"},
		{"/x\\..\\\\evil.example", "/"},
		{"/\t/evil.example", "/"},
		{"/\n/evil.example", "/"},
		{"/\r/evil.example", "/"},
		{"/\x00/evil.example", "/"},
		{"/\x7f/evil.example", "/"},
		{"/decisions\x1b[2J", "/"},
		{" //evil.example", "/"},
		{"\t//evil.example", "/"},
		{"https://evil.example/", "/"},
		{"javascript:alert(1)", "/"},
		{"/login", "/"},
		{"/login?next=//evil.example", "/"},
		{"/\u202e/evil", "/"},
	}
	for _, tc := range cases {
		// The transport alone: a client would refuse to parse a bad
		// Location before the test could look at it.
		req, err := http.NewRequest("POST", e.url("/login"), strings.NewReader(url.Values{"token": {testToken}, "next": {tc.next}}.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != tc.want {
			t.Errorf("next=%q: %d to %q; want %q", tc.next, resp.StatusCode, loc, tc.want)
		}
	}
}
