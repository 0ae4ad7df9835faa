package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/store/sqlite"
)

// The fuzz targets (fuzz_api_test.go, fuzz_webhook_test.go) send their
// requests straight to the server's handler, in process, so that a fuzz
// worker tries thousands a second; the listener and its Host check are
// tested elsewhere. Each checks the same properties of every answer.

// rawRequest parses method and target as a client's request line would
// reach the daemon; false when net/http would refuse the line itself
// (the daemon's handler never sees it).
func rawRequest(method, target string) (*http.Request, bool) {
	if strings.ContainsAny(method+target, "\r\n") {
		return nil, false
	}
	req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")))
	if err != nil {
		return nil, false
	}
	req.RemoteAddr = "127.0.0.1:40000"
	return req, true
}

// serve runs req through h and checks what every answer must be: never
// a 5xx (a panic is answered 500 by the server, so it is caught here
// too), and a refusal is the API's one error shape, in JSON. The one
// exception is 501 not_implemented from a route whose part the daemon
// runs without (agent control under the headless runner, as these rigs
// are): it depends on the daemon's configuration, never on the input.
func serve(t *testing.T, h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	unwired := rec.Code == http.StatusNotImplemented && strings.Contains(rec.Body.String(), `"code":"not_implemented"`)
	if rec.Code >= 500 && !unwired {
		t.Fatalf("%s %s: %d %s", req.Method, req.URL, rec.Code, rec.Body.Bytes())
	}
	if rec.Code >= 400 {
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Fatalf("%s %s: %d with Content-Type %q; want the JSON error shape", req.Method, req.URL, rec.Code, ct)
		}
		var e struct {
			Error struct{ Code, Message string }
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
			t.Fatalf("%s %s: %d %q; want {\"error\":{\"code\",\"message\"}}", req.Method, req.URL, rec.Code, rec.Body.Bytes())
		}
	}
	return rec
}

// fuzzQueue is the fuzz rigs' queue size: a long run makes thousands of
// tasks, and a full queue would answer every later creation 429 and
// leave the paths past it untried.
const fuzzQueue = 1 << 20

// tasksIn counts the store's tasks.
func tasksIn(t *testing.T, st *sqlite.Store) int {
	t.Helper()
	counts, err := st.CountTasks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}
