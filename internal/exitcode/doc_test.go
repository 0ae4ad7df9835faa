package exitcode

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDocumentedCodes: docs/commands.md's "Exit codes" table lists exactly
// the codes this package defines, each once, so the page users read and
// the map the binaries use cannot drift apart.
func TestDocumentedCodes(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "commands.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Exit codes\n")
	if !ok {
		t.Fatal(`docs/commands.md has no "## Exit codes" section`)
	}
	if i := strings.Index(section, "\n## "); i >= 0 {
		section = section[:i]
	}
	var documented []int
	for _, m := range regexp.MustCompile(`(?m)^\| (\d+) \|`).FindAllStringSubmatch(section, -1) {
		n, _ := strconv.Atoi(m[1])
		documented = append(documented, n)
	}
	want := []int{OK, Failure, Usage, No}
	if len(documented) != len(want) {
		t.Fatalf("docs/commands.md documents codes %v, the package defines %v", documented, want)
	}
	for i := range want {
		if documented[i] != want[i] {
			t.Errorf("docs/commands.md documents codes %v, the package defines %v", documented, want)
			break
		}
	}
}
