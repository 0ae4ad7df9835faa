package hook

import (
	"os/exec"
	"strings"
	"testing"
)

// forbidden are packages whose init cost or weight must stay off the hook
// hot path (claude-code-hooks.md §8, go-deps.md §4): the daemon, web, MCP and
// orchestrator code, LLM SDKs, and the network stack.
var forbidden = []string{
	// The runtime knows nothing of the server that runs it for callers,
	// nor of the status line it also answers (that server lives above both).
	"github.com/warden-dev/warden/internal/hookserve",
	"github.com/warden-dev/warden/internal/statusline",
	"github.com/warden-dev/warden/internal/cli",
	"github.com/warden-dev/warden/internal/install",
	"github.com/warden-dev/warden/internal/doctor",
	"github.com/warden-dev/warden/internal/helper/cmds",
	"github.com/warden-dev/warden/internal/server",
	"github.com/warden-dev/warden/internal/daemon",
	"github.com/warden-dev/warden/internal/web",
	"github.com/warden-dev/warden/internal/mcp",
	"github.com/warden-dev/warden/internal/orchestrator",
	"github.com/spf13/cobra",
	"github.com/anthropics/anthropic-sdk-go",
	"github.com/modelcontextprotocol/go-sdk",
	"github.com/mark3labs/mcp-go",
	"github.com/prometheus/client_golang",
	"cel.dev/cel-go",
	"github.com/google/cel-go",
	"github.com/go-git/go-git",
	"github.com/bytedance/sonic",
	"github.com/chromedp/chromedp",
	// Hooks never talk to PostgreSQL: they write the local store, and the
	// daemon ships events to the shared one.
	"github.com/warden-dev/warden/internal/store/postgres",
	"github.com/jackc/pgx",
	"net/http",
	"crypto/tls",
}

func TestHookPackageStaysSmall(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go tool not on PATH")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/warden-dev/warden/internal/hook").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	for _, d := range deps {
		for _, f := range forbidden {
			if d == f || strings.HasPrefix(d, f+"/") {
				t.Errorf("internal/hook depends on %s; keep it off the hot path", d)
			}
		}
	}
}
