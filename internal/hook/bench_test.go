package hook

import (
	"bytes"
	"io"
	"strings"
	"testing"
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
