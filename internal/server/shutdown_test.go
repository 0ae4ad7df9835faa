package server_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/httpstop"
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

// A stream (server-sent events) ends as the shutdown starts, through
// httpstop, so an open dashboard does not hold the stop until the drain
// deadline and make Serve fail.
func TestServeEndsStreamsOnShutdown(t *testing.T) {
	r := newAPIRig(t, 10, server.Webhooks{})
	streaming := make(chan struct{})
	r.srv.Mount("/stream", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Write([]byte("data: hello\n\n"))
		http.NewResponseController(w).Flush()
		close(streaming)
		select {
		case <-req.Context().Done():
		case <-httpstop.Done(req.Context()):
		}
	}), false)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	// A drain deadline no test waits for: Serve returning nil at all
	// proves the stream ended of itself.
	go func() { served <- server.Serve(ctx, server.HTTPServer(r.srv, nil), ln, time.Hour, "", "") }()
	req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/stream", nil)
	req.Header.Set("Authorization", "Bearer "+r.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	select {
	case <-streaming:
	case <-time.After(20 * time.Second):
		t.Fatalf("the stream never started: %d", resp.StatusCode)
	}
	cancel()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if b, _ := io.ReadAll(resp.Body); string(b) != "data: hello\n\n" {
		t.Errorf("stream body %q", b)
	}
}
