package mcp

import (
	"os/exec"
	"strings"
	"testing"
)

// The MCP SDK lives in warden-helper alone: neither the front Claude Code
// starts for every hook nor warden-core (the keeper, the hook runtime)
// links it or this package (internal/sibling checks every heavy package
// the same way).
func TestMCPSDKOnlyInWardenHelper(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go tool not on PATH")
	}
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		return strings.Fields(string(out))
	}
	heavy := []string{"github.com/modelcontextprotocol/go-sdk", "github.com/warden-dev/warden/internal/mcp"}
	for _, cmd := range []string{"cmd/warden", "cmd/warden-core"} {
		for _, d := range deps("github.com/warden-dev/warden/" + cmd) {
			for _, h := range heavy {
				if d == h || strings.HasPrefix(d, h+"/") {
					t.Errorf("%s links %s; only cmd/warden-helper may", cmd, d)
				}
			}
		}
	}
	found := false
	for _, d := range deps("github.com/warden-dev/warden/cmd/warden-helper") {
		found = found || d == "github.com/modelcontextprotocol/go-sdk/mcp"
	}
	if !found {
		t.Errorf("cmd/warden-helper does not link the MCP SDK")
	}
}
