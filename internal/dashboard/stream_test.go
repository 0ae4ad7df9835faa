package dashboard_test

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// TestStreamOutlivesServerTimeouts: the daemon's http.Server has read and
// write timeouts (30 s, 60 s); a live stream must keep delivering past
// them. Here they are 0.5 s and 1 s and an event written after 2.5 s
// still arrives on the open stream.
func TestStreamOutlivesServerTimeouts(t *testing.T) {
	e := newEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: e.api, ReadTimeout: 500 * time.Millisecond, WriteTimeout: time.Second}
	go hs.Serve(ln)
	defer hs.Close()
	req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/live/stream?after=0", nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	go func() {
		time.Sleep(2500 * time.Millisecond) // past both timeouts: the point of the test
		e.st.RecordHook(context.Background(), &store.Event{SessionID: "late", Event: "Stop"}, nil)
	}()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "late") {
			return
		}
	}
	t.Fatalf("the stream ended before the late event: %v", sc.Err())
}

// TestRetireEndsOpenStreams: a daemon that swaps its HTTP handler retires
// the old dashboard; a stream open on it (the store unchanged) and one
// opened on it afterwards both end with "reload", so their pages load
// afresh from the handler that serves now instead of streaming on.
func TestRetireEndsOpenStreams(t *testing.T) {
	e := newEnv(t)
	// A stream that is never ended fails the test at this deadline.
	client := &http.Client{Timeout: 20 * time.Second}
	open := func() (*http.Response, *bufio.Scanner) {
		req, _ := http.NewRequest("GET", "http://"+e.addr+"/live/stream?after=0", nil)
		req.Header.Set("Authorization", "Bearer "+testToken)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp, bufio.NewScanner(resp.Body)
	}
	// untilEnd reads the stream to its end: the lines it sent.
	untilEnd := func(sc *bufio.Scanner) []string {
		var lines []string
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		return lines
	}
	_, sc := open()
	e.hook(`{"session_id":"before-retire","cwd":"/tmp","hook_event_name":"Stop"}`)
	for sc.Scan() { // the stream is live: the event arrives
		if strings.Contains(sc.Text(), "before-retire") {
			break
		}
	}
	e.dash.Retire()
	if lines := untilEnd(sc); !strings.Contains(strings.Join(lines, "\n"), "event: reload") {
		t.Errorf("the open stream ended without reload: %q", lines)
	}
	_, sc = open()
	if lines := untilEnd(sc); !strings.Contains(strings.Join(lines, "\n"), "event: reload") || strings.Contains(strings.Join(lines, "\n"), "event: ev") {
		t.Errorf("a stream opened on a retired dashboard: %q; want only reload", lines)
	}
}
