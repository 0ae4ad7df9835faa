package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/harness"
	"github.com/warden-dev/warden/internal/paths"
)

// What warden serve does before an agent of another CLI starts: without
// warden installed it refuses, saying what to run, and writes nothing;
// with it, it writes what `warden install --harness NAME` writes (Codex's
// trust entries included, the user's entries kept) and says so; when the
// hooks are there it changes nothing.
func TestEnsureHarness(t *testing.T) {
	for _, h := range []harness.Name{harness.Codex, harness.Gemini, harness.Copilot} {
		t.Run(string(h), func(t *testing.T) {
			e := newEnv(t)
			files := e.harnessFiles(h)
			if h == harness.Codex {
				writeFile(t, files[1], codexConfig)
			}
			before := snapshot(files)
			if _, err := EnsureHarness(h); err == nil || !strings.Contains(err.Error(), "warden install --harness "+string(h)) {
				t.Fatalf("without warden installed: %v", err)
			}
			if !equalMaps(snapshot(files), before) {
				t.Fatal("a refused ensure changed files")
			}

			if err := os.MkdirAll(filepath.Dir(paths.Bin()), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, paths.Bin(), "#!/bin/sh\n")
			note, err := EnsureHarness(h)
			if err != nil || !strings.Contains(note, "installed warden's "+string(h)+" hooks") || !strings.Contains(note, files[0]) {
				t.Fatalf("ensure: %q, %v", note, err)
			}
			after := snapshot(files)
			e.checkInstalled(t, h, after)
			if h == harness.Codex && !strings.Contains(after[files[1]], "trust_level") {
				t.Errorf("the user's Codex config lost its entries:\n%s", after[files[1]])
			}
			if note, err := EnsureHarness(h); err != nil || note != "" || !equalMaps(snapshot(files), after) {
				t.Errorf("second ensure: %q, %v (or files changed)", note, err)
			}
		})
	}
}
