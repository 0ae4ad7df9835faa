package hookclient

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/testenv"
)

// TestFrontBinaryStaysBare: cmd/warden is what Claude Code starts for
// every hook, so it links only the standard library's basics and the three
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
	}
	// Standard packages with a real init or start-up cost, or no business
	// in a process that connects, sends and waits.
	heavy := []string{"fmt", "reflect", "net", "crypto", "encoding/json", "regexp", "os/exec", "text/template", "compress"}
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
