package store_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// Each store plays its roles as the types say (internal/store/roles.go).
var (
	_ store.Local  = (*sqlite.Store)(nil)
	_ store.Shared = (*sqlite.Store)(nil)
	_ store.Shared = (*postgres.Store)(nil)
)

// storePackages are the packages whose types are stores or parts of one:
// asserting a value to one of them finds a capability outside the type
// the code was given.
var storePackages = map[string]bool{"store": true, "sqlite": true, "postgres": true, "quota": true, "task": true, "stats": true}

// TestNoStoreTypeAssertions: no production code finds a store's capability
// by a type assertion (x.(quota.Store), x.(interface{ ClaimSetting(…) }),
// x.(*sqlite.Store)). What a caller needs of a store is in the interface
// it takes: store.Local or store.Shared, or a narrower one it declares;
// extend the role (and both stores, for Shared) instead.
func TestNoStoreTypeAssertions(t *testing.T) {
	methods := storeMethods()
	root := filepath.Join("..", "..")
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
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		n++
		ifaces := localInterfaces(f)
		check := func(at ast.Node, typ ast.Expr) {
			if why := storeType(typ, ifaces, methods); why != "" {
				t.Errorf("%s:%d: a type assertion to %s finds a store's capability by assertion; take store.Local, store.Shared or a narrower interface that has it instead",
					rel, fset.Position(at.Pos()).Line, why)
			}
		}
		ast.Inspect(f, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.TypeAssertExpr:
				if x.Type != nil {
					check(x, x.Type)
				}
			case *ast.TypeSwitchStmt:
				for _, c := range x.Body.List {
					for _, typ := range c.(*ast.CaseClause).List {
						check(typ, typ)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("scanned %d files: the walk missed the tree", n)
	}
}

// storeMethods are the method names of the stores, less the ones every
// resource has (Close, Check).
func storeMethods() map[string]bool {
	m := map[string]bool{}
	for _, v := range []any{(*sqlite.Store)(nil), (*postgres.Store)(nil)} {
		typ := reflect.TypeOf(v)
		for i := range typ.NumMethod() {
			m[typ.Method(i).Name] = true
		}
	}
	delete(m, "Close")
	delete(m, "Check")
	return m
}

// localInterfaces are the interface types f declares, by name.
func localInterfaces(f *ast.File) map[string]*ast.InterfaceType {
	out := map[string]*ast.InterfaceType{}
	ast.Inspect(f, func(x ast.Node) bool {
		if ts, ok := x.(*ast.TypeSpec); ok {
			if it, ok := ts.Type.(*ast.InterfaceType); ok {
				out[ts.Name.Name] = it
			}
		}
		return true
	})
	return out
}

// storeType names typ when it is a store type or an interface with a
// store's method; "" otherwise.
func storeType(typ ast.Expr, ifaces map[string]*ast.InterfaceType, methods map[string]bool) string {
	if s, ok := typ.(*ast.StarExpr); ok {
		typ = s.X
	}
	switch x := typ.(type) {
	case *ast.SelectorExpr:
		if pkg, ok := x.X.(*ast.Ident); ok && storePackages[pkg.Name] {
			return pkg.Name + "." + x.Sel.Name
		}
	case *ast.InterfaceType:
		if m := storeMethod(x, methods); m != "" {
			return "an interface with " + m
		}
	case *ast.Ident:
		if it, ok := ifaces[x.Name]; ok {
			if m := storeMethod(it, methods); m != "" {
				return x.Name + " (it has " + m + ")"
			}
		}
	}
	return ""
}

func storeMethod(it *ast.InterfaceType, methods map[string]bool) string {
	for _, f := range it.Methods.List {
		for _, name := range f.Names {
			if methods[name.Name] {
				return name.Name
			}
		}
	}
	return ""
}
