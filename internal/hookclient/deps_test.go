package hookclient

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/testenv"
)

// TestFrontBinaryStaysBare: cmd/warden is what Claude Code starts for
// every hook, so it links only the standard library's basics and the five
// small packages of its own; each package more is start-up paid on every
// event (a Go program's init and page faults grow with what it links).
func TestFrontBinaryStaysBare(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		if testenv.InCI() {
			t.Fatal("go tool not on PATH")
		}
		t.Skip("go tool not on PATH")
	}
	out, err := exec.Command("go", "list", "-deps", testenv.Module+"/cmd/warden").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	own := map[string]bool{
		testenv.Module + "/cmd/warden":          true,
		testenv.Module + "/internal/hookclient": true,
		testenv.Module + "/internal/hookwire":   true,
		testenv.Module + "/internal/paths":      true,
		testenv.Module + "/internal/sibling":    true,
		testenv.Module + "/internal/exitcode":   true,
	}
	// Standard packages with a real init or start-up cost, or no business
	// in a process that connects, sends and waits.
	heavy := []string{"fmt", "reflect", "net", "crypto", "encoding/json", "regexp", "os/exec", "text/template", "compress", "runtime/cgo", "plugin"}
	for _, d := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(d, "/")
		if strings.Contains(first, ".") {
			if !own[d] {
				t.Errorf("cmd/warden links %s; keep it in warden-core", d)
			}
			continue
		}
		for _, h := range heavy {
			if d == h || strings.HasPrefix(d, h+"/") {
				t.Errorf("cmd/warden links the standard package %s; keep it in warden-core", d)
			}
		}
	}
}

// TestNoAssemblyInTree: the front, like the rest of warden, is plain Go.
// Assembly that jumps into the Go runtime's private entry points breaks
// with a Go release and needs one copy per machine; the bar is a bare Go
// program's start-up, which plain Go meets (bench/hook-latency).
func TestNoAssemblyInTree(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("not the module root: %v", err)
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		switch filepath.Ext(p) {
		case ".s", ".S", ".h", ".c":
			t.Errorf("%s: no assembly or C in the tree; write it in Go", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
