package dashboard_test

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/testenv"
)

// openStream opens /live/stream with tok and reads it until the event
// marker arrives (the stream is live), returning the rest of the stream.
// A stream that never ends fails the test at the client's deadline: the
// only timing in these tests, and a generous one.
func openStream(t *testing.T, e *env, tok, marker string) *bufio.Scanner {
	t.Helper()
	client := &http.Client{Timeout: 30 * time.Second}
	req, _ := http.NewRequest("GET", e.url("/live/stream?after=0"), nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("open stream: %s", resp.Status)
	}
	sc := bufio.NewScanner(resp.Body)
	e.hook(`{"session_id":"` + marker + `","cwd":"/tmp","hook_event_name":"Stop"}`)
	for sc.Scan() {
		if strings.Contains(sc.Text(), marker) {
			return sc
		}
	}
	t.Fatalf("the stream ended before %s arrived: %v", marker, sc.Err())
	return nil
}

// rest reads a stream to its end.
func rest(sc *bufio.Scanner) string {
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return strings.Join(lines, "\n")
}

// TestStreamEndsWhenTokenRevoked: a live stream is one long request; the
// token it opened with is checked again while it runs, so `warden token
// revoke` (the real CLI on the same store file) ends it with a reload
// that sends the page to the login form, and the token opens no new one.
func TestStreamEndsWhenTokenRevoked(t *testing.T) {
	e := newEnv(t)
	tok, hash := store.NewAPIToken()
	if err := e.st.AddToken(context.Background(), &store.APIToken{ID: "viewer-1", Name: "viewer", Hash: hash, Created: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	sc := openStream(t, e, tok, "before-revoke")

	cmd := exec.Command(testenv.Binary(t, "warden"), "token", "revoke", "viewer")
	cmd.Env = append(os.Environ(), "WARDEN_HOME="+e.home, "WARDEN_KEEPER=off", "HOME="+e.home)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("warden token revoke: %v\n%s", err, out)
	}
	got := rest(sc)
	if !strings.Contains(got, "event: reload") || !strings.Contains(got, "revoked or has expired") {
		t.Errorf("the stream ended without telling the page to log in again: %q", got)
	}
	req, _ := http.NewRequest("GET", e.url("/live/stream?after=0"), nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a revoked token opened a stream: %s", resp.Status)
	}
}

// TestStreamEndsWhenTokenExpires: the same for a token whose expiry
// passes while its stream is open (the API's clock moved past it).
func TestStreamEndsWhenTokenExpires(t *testing.T) {
	start := testenv.Now()
	var skew atomic.Int64 // how far the API's clock is ahead
	e := newEnvWith(t, func(o *server.Options) {
		o.Now = func() time.Time { return start.Add(time.Duration(skew.Load())) }
	})
	tok, hash := store.NewAPIToken()
	exp := start.Add(time.Hour)
	if err := e.st.AddToken(context.Background(), &store.APIToken{ID: "short-1", Name: "short", Hash: hash, Created: start, Expires: &exp}); err != nil {
		t.Fatal(err)
	}
	sc := openStream(t, e, tok, "before-expiry")
	skew.Store(int64(2 * time.Hour))
	if got := rest(sc); !strings.Contains(got, "event: reload") {
		t.Errorf("the stream of an expired token ended without a reload: %q", got)
	}
}

// TestLivePageLogsOutWhenTokenRevoked: in a real browser, a live view
// open while its token is revoked with `warden token revoke` lands on the
// login form, with no console error on the way.
func TestLivePageLogsOutWhenTokenRevoked(t *testing.T) {
	e := newEnv(t)
	b := newBrowser(t, 1280, 860, false)
	b.login(t, e)
	b.open(t, e.url("/live"))
	b.waitFor(t, `document.getElementById("status").textContent === "live"`, 10*time.Second)

	cmd := exec.Command(testenv.Binary(t, "warden"), "token", "revoke", "test")
	cmd.Env = append(os.Environ(), "WARDEN_HOME="+e.home, "WARDEN_KEEPER=off", "HOME="+e.home)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("warden token revoke: %v\n%s", err, out)
	}
	// The stream checks every 2 s; 30 s is the deadline of a page that
	// never leaves, not a measure.
	b.waitFor(t, `location.pathname === "/login" && !!document.getElementById("token")`, 30*time.Second)
	if errs := b.takeErrors(); len(errs) > 0 {
		t.Errorf("console errors on the way to the login form: %q", errs)
	}
}
