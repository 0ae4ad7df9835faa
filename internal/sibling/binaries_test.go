package sibling

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/testenv"
)

// TestThreeBinaries: cmd/ builds exactly the binaries All names — the
// front, the core and the helper — and none of the retired ones.
func TestThreeBinaries(t *testing.T) {
	dirs, err := os.ReadDir(filepath.Join("..", "..", "cmd"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range dirs {
		if d.IsDir() {
			got = append(got, d.Name())
		}
	}
	want := slices.Sorted(slices.Values(All))
	if !slices.Equal(got, want) {
		t.Errorf("cmd/ holds %v, want %v (at most three binaries: a command with heavy dependencies belongs in warden-helper)", got, want)
	}
}

// heavy are the packages whose init or weight a hook must never pay for:
// the front and warden-core (the keeper, the hook runtime, every command
// the keeper does not answer) link none of them; warden-helper links each
// (were one missing there, the guard would be guarding nothing).
var heavy = []string{
	"net/http",
	"crypto/tls",
	"github.com/prometheus/client_golang/prometheus",
	"github.com/anthropics/anthropic-sdk-go",
	"github.com/modelcontextprotocol/go-sdk/mcp",
	"github.com/jackc/pgx/v5",
	testenv.Module + "/internal/daemon",
	testenv.Module + "/internal/server",
	testenv.Module + "/internal/dashboard",
	testenv.Module + "/internal/mcp",
	testenv.Module + "/internal/judge/llm",
	testenv.Module + "/internal/store/postgres",
	testenv.Module + "/internal/helper/cmds",
}

func TestHeavyPackagesOnlyInTheHelper(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		if testenv.InCI() {
			t.Fatal("go tool not on PATH")
		}
		t.Skip("go tool not on PATH")
	}
	deps := func(bin string) []string {
		out, err := exec.Command("go", "list", "-deps", testenv.Module+"/cmd/"+bin).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", bin, err, out)
		}
		return strings.Fields(string(out))
	}
	for _, bin := range []string{Front, Core} {
		for _, d := range deps(bin) {
			for _, h := range heavy {
				if d == h || strings.HasPrefix(d, h+"/") {
					t.Errorf("%s links %s; it belongs in %s (every hook would pay for its init)", bin, d, Helper)
				}
			}
		}
	}
	helper := deps(Helper)
	for _, h := range heavy {
		if !slices.Contains(helper, h) {
			t.Errorf("%s does not link %s: update this list with what moved", Helper, h)
		}
	}
}
