package hook

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/reqenv"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// BenchmarkHookInProcess measures one PreToolUse run of the hook runtime
// without process start-up: config load, store open, session load, the
// handlers, rendering and the store write. The process-level figure (with
// start-up, against /bin/true and a bare Go binary) is bench/hook-latency.
func BenchmarkHookInProcess(b *testing.B) {
	home := b.TempDir()
	b.Setenv("WARDEN_HOME", home)
	b.Setenv("CLAUDE_PROJECT_DIR", b.TempDir())
	in := payload("PreToolUse", `"tool_name":"Bash","tool_use_id":"t","tool_input":{"command":"ls -la","description":"list"}`)
	Main(nil, strings.NewReader(in), io.Discard, io.Discard) // create the store
	var errb bytes.Buffer
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code := Main(nil, strings.NewReader(in), io.Discard, &errb); code != 0 || errb.Len() > 0 {
			b.Fatalf("code %d: %s", code, errb.String())
		}
	}
}

// BenchmarkHookServed is one PreToolUse run as the keeper runs it: the
// store is open and shared, so this is the hook's own work.
func BenchmarkHookServed(b *testing.B) {
	home := b.TempDir()
	b.Setenv("WARDEN_HOME", home)
	b.Setenv("CLAUDE_PROJECT_DIR", b.TempDir())
	in := payload("PreToolUse", `"tool_name":"Bash","tool_use_id":"t","tool_input":{"command":"ls -la","description":"list"}`)
	Main(nil, strings.NewReader(in), io.Discard, io.Discard) // create the store
	st, err := sqlite.Open(context.Background(), filepath.Join(home, "warden.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	var errb bytes.Buffer
	caller := reqenv.Process()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req := Request{Env: caller, Stdin: strings.NewReader(in), Stdout: io.Discard, Stderr: &errb, Store: st}
		if code := Run(context.Background(), req); code != 0 || errb.Len() > 0 {
			b.Fatalf("code %d: %s", code, errb.String())
		}
	}
}
