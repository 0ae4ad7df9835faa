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
