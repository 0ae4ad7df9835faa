package testenv

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoCommandImportsTestenv: the package is for tests only; no binary
// may link it (nor, through it, package testing), nor the store's
// conformance suite.
func TestNoCommandImportsTestenv(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", Module+"/cmd/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == Module+"/internal/testenv" || p == Module+"/internal/store/storetest" {
			t.Fatal("a command imports " + p)
		}
	}
}
