package statusline

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkRenderLive is the in-process part of one `warden statusline`:
// decode, config load, branch from .git/HEAD, layout. (Process start-up is
// measured by bench/statusline-latency.)
func BenchmarkRenderLive(b *testing.B) {
	liveEnv(b)
	proj := b.TempDir()
	os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
	os.WriteFile(filepath.Join(proj, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	in := []byte(`{"session_id":"b","cwd":"` + proj + `","model":{"display_name":"Opus"},"context_window":{"used_percentage":42},"cost":{"total_cost_usd":1.2}}`)
	fired := []byte(`{"session_id":"b","cwd":"` + proj + `","model":{"display_name":"Opus"},"context_window":{"used_percentage":82},"cost":{"total_cost_usd":1.2}}`)
	Run(bytes.NewReader(fired), io.Discard, Live(Options{}))
	b.Run("below", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			Run(bytes.NewReader(in), io.Discard, Live(Options{}))
		}
	})
	b.Run("fired", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			Run(bytes.NewReader(fired), io.Discard, Live(Options{}))
		}
	})
}
