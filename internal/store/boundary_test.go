package store

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The store owns its SQL: no production code outside the store's
// implementations opens a database handle or a driver of its own. Callers
// declare the small interface they need and get a store from the edges
// (cmd/, the CLI's wiring). Allowed besides the implementations: test
// support (internal/testenv starts PostgreSQL; sqlitetest opens the file as
// another process would) and bench/, whose programs read the file from
// outside like sqlite3 would.
func TestNoSQLOutsideTheStore(t *testing.T) {
	root := filepath.Join("..", "..")
	allowed := []string{"internal/store/sqlite/", "internal/store/postgres/", "internal/testenv/", "bench/",
		// Parses a URL with pgxpool.ParseConfig and runs no SQL: warden serve
		// refuses a URL that can never work before it retries the server.
		"internal/daemon/shared.go"}
	banned := map[string]bool{"database/sql": true, "modernc.org/sqlite": true, "modernc.org/sqlite/lib": true}
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		for _, a := range allowed {
			if strings.HasPrefix(rel, a) {
				return nil
			}
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		n++
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if banned[path] || strings.HasPrefix(path, "github.com/jackc/pgx") {
				t.Errorf("%s imports %s: SQL belongs in internal/store/sqlite or internal/store/postgres; add a store method and declare the interface you need", rel, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("only %d files checked: is the walk rooted at the module?", n)
	}
}
