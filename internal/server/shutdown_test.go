package server_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/server"
)

// Shutdown finishes a request in flight: the listener closes at once, the
// running request still gets its answer, then Serve returns.
func TestServeDrainsInFlightRequests(t *testing.T) {
	r := newAPIRig(t, 10, server.Webhooks{})
	entered, release := make(chan struct{}), make(chan struct{})
	r.srv.Mount("/slow", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		close(entered)
		<-release
		w.Write([]byte("finished"))
	}), false)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- server.Serve(ctx, server.HTTPServer(r.srv, nil), ln, 10*time.Second, "", "") }()
	got := make(chan string, 1)
	go func() {
		req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/slow", nil)
		req.Header.Set("Authorization", "Bearer "+r.token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- string(b)
	}()
	<-entered
	cancel()
	// New connections are refused while the old request runs.
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the listener still accepts after shutdown began")
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case err := <-served:
		t.Fatalf("Serve returned %v with a request in flight", err)
	default:
	}
	close(release)
	if s := <-got; s != "finished" {
		t.Errorf("in-flight request got %q", s)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
}
