package policy

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// Nothing compiles a regular expression at package init: every hook
// process would pay for every pattern of every rule (39 of them cost
// ~1 ms and 0.7 MB before this test), while a call needs a few. A
// package-level pattern is re(`…`) (lazyre: compiled on first use) or
// built inside a sync.OnceValue.
func TestNoRegexpCompiledAtInit(t *testing.T) {
	for _, dir := range []string{".", "../callfacts"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					continue
				}
				ast.Inspect(g, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.FuncLit:
						return false // runs when called (sync.OnceValue), not at init
					case *ast.SelectorExpr:
						if x, ok := n.X.(*ast.Ident); ok && x.Name == "regexp" && (n.Sel.Name == "MustCompile" || n.Sel.Name == "Compile") {
							t.Errorf("%s: regexp.%s at package init; use re(`…`) (compiled on first use)", fset.Position(n.Pos()), n.Sel.Name)
						}
					}
					return true
				})
			}
		}
	}
}
