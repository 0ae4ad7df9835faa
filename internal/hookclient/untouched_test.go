//go:build unix

package hookclient

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestUntouchedStdin: the client runs a hook itself after a keeper went
// silent only when the keeper did not read its stdin: a pipe still holding
// the payload, a file still at its start.
func TestUntouchedStdin(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w.WriteString(`{"hook_event_name":"PreToolUse"}`)
	w.Close()
	if !untouched(int(r.Fd())) {
		t.Fatal("a pipe holding the payload is untouched")
	}
	io.ReadAll(r)
	if untouched(int(r.Fd())) {
		t.Fatal("a drained pipe counts as untouched")
	}

	p := filepath.Join(t.TempDir(), "payload.json")
	os.WriteFile(p, []byte(`{"hook_event_name":"Stop"}`), 0o600)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !untouched(int(f.Fd())) {
		t.Fatal("a file at its start is untouched")
	}
	f.Read(make([]byte, 4))
	if untouched(int(f.Fd())) {
		t.Fatal("a file read from counts as untouched")
	}
}
