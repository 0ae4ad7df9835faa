package statusline

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// fuzzSeeds are the seed corpus (also in testdata/fuzz/FuzzStatusline), so
// a plain `go test` runs them; `go test -fuzz FuzzStatusline` explores.
var fuzzSeeds = []string{
	``,
	`{}`,
	`null`,
	`[1,2,3]`,
	`"str"`,
	`{"session_id":"f1","cwd":"/tmp","model":{"id":"claude-opus-4","display_name":"Opus"},"context_window":{"used_percentage":8}}`,
	`{"session_id":"f2","cwd":"/tmp","context_window":{"used_percentage":0.74},"cost":{"total_cost_usd":0.01}}`,
	`{"session_id":"f3","context_window":{"used_percentage":1e308},"cost":{"total_cost_usd":-1}}`,
	`{"model":null,"context_window":null,"cost":null,"workspace":null}`,
	`{"model":{"display_name":"\u001b]0;pwn\u0007"},"workspace":{"project_dir":"/nonexistent","current_dir":"/"}}`,
	`{"context_window":{"used_percentage":"74%"}}`,
	`{"session_id":` + strings.Repeat(`"x`, 10) + `}`,
	`{"model":{"display_name":"` + strings.Repeat("é", 5000) + `"}}`,
}

func FuzzStatusline(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	liveEnv(f)
	f.Setenv("COLUMNS", "60")
	// Anything the render writes to the process's stderr is a failure:
	// os.Stderr is swapped for a file around each render (not for the whole
	// run: the fuzzing engine itself reports on stderr).
	errFile, err := os.CreateTemp(f.TempDir(), "stderr")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { errFile.Close() })
	f.Fuzz(func(t *testing.T, in []byte) {
		// A render that takes seconds is a hang or a blow-up on some input,
		// not a slow machine: the bound is far above any scheduler hiccup
		// (render speed itself is BenchmarkRenderLive's job, not this test's).
		var out bytes.Buffer
		old := os.Stderr
		os.Stderr = errFile
		start := time.Now()
		Run(bytes.NewReader(in), &out, Live(Options{}))
		took := time.Since(start)
		os.Stderr = old
		if fi, err := errFile.Stat(); err == nil && fi.Size() > 0 {
			t.Fatalf("wrote to stderr for %q", in)
		}
		if took > 2*time.Second {
			t.Errorf("render took %v for %q: a hang or a blow-up", took, in)
		}
		s := out.String()
		if s == "" || !strings.HasSuffix(s, "\n") {
			t.Errorf("no line for %q: %q", in, s)
		}
		if strings.Contains(s, "\x07") || strings.Contains(s, "\x1b]") {
			t.Errorf("control sequence from the input reached the terminal: %q", s)
		}
	})
}
