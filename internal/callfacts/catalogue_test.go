package callfacts

import (
	"strconv"
	"strings"
	"testing"
)

// A program is described by one file of the catalogue (clis/*.txt):
// the first matching line wins, files in name order, so a program split
// across two files is judged by whichever sorts first and the other's
// lines for it are shadowed unseen. Its lines belong together, destroy
// lines before change lines. remote.txt, read before them all, holds
// the forms every file builds on (docker push, gh release) and may
// share a program with one of them.
func TestCatalogueNamesEachProgramOnce(t *testing.T) {
	home := map[string]string{} // program → the file that describes it
	seen := map[string]string{} // a line's words → where it first stands
	for _, l := range remoteLines() {
		if len(l.Fields) < 2 || l.Table == "remote.txt" {
			continue
		}
		prog := l.Fields[1]
		if prog != strings.ToLower(prog) {
			t.Errorf("%s:%d: program %q: catalogue names are lowercase (a command's name is matched lowercased)", l.Table, l.N, prog)
		}
		if f, ok := home[prog]; ok && f != l.Table {
			t.Errorf("%s:%d: %s is already described in %s: move its lines there (one file per program)", l.Table, l.N, prog, f)
			continue
		}
		home[prog] = l.Table
		key := strings.Join(l.Fields, " ")
		if at, ok := seen[key]; ok {
			t.Errorf("%s:%d: the same line as %s: delete one", l.Table, l.N, at)
		}
		seen[key] = l.Table + ":" + strconv.Itoa(l.N)
	}
}
