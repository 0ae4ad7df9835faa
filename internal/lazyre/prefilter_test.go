package lazyre

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The literals a prefilter reads are ones every match contains.
func TestPrefilterLiterals(t *testing.T) {
	for _, c := range []struct {
		pat  string
		want []string // exact, then fold as "i:…"; nil: no prefilter
	}{
		{`abc`, []string{"abc"}},
		{`(?i)keyboard\.Listener|GetAsyncKeyState`, []string{"i:keyboard.listener", "i:getasynckeystate"}},
		{`foo(bar)?baz`, []string{"foo"}},
		{`x+ab`, []string{"ab"}},
		{`a*`, nil},
		{`\bfoo\b|bar`, []string{"foo", "bar"}},
		{`foo|b*`, nil},
		{`[Aa]pi-key`, []string{"pi-key"}},
		{`(?i)ſecret`, []string{"i:secret"}}, // ſ folds to s: ASCII text is searched for s, other text goes to the regexp
		{`\d+`, nil},
	} {
		p := newPrefilter(c.pat)
		var got []string
		if p != nil {
			got = append(got, p.exact...)
			for _, f := range p.fold {
				got = append(got, "i:"+f)
			}
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: literals %q, want %q", c.pat, got, c.want)
		}
	}
}

// Wherever a pattern matches, its prefilter lets the text through: every
// pattern the policy and the reading of calls use (re(`…`),
// lazyre.New(`…`)), over a sixth of the policy's corpus lines as written
// and in upper case, and the patterns' own literals embedded in other
// text, in upper case, and with Unicode look-alikes of k and s.
func TestPrefilterNeverHidesAMatch(t *testing.T) {
	pats := sourcePatterns(t, "../policy", "../callfacts")
	if len(pats) < 50 {
		t.Fatalf("found %d patterns in the sources; the reader of the sources is broken", len(pats))
	}
	var texts []string
	files, _ := filepath.Glob("../policy/corpus/*.txt")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(b), "\n") {
			if i%6 == 0 { // a sixth of each file: the test stays short
				texts = append(texts, l, strings.ToUpper(l))
			}
		}
	}
	if len(texts) < 1500 {
		t.Fatalf("only %d corpus lines", len(texts))
	}
	for _, p := range pats {
		pre := newPrefilter(p)
		for _, l := range append(pre.all(), "keyboard.Listener", "secret") {
			texts = append(texts, "x "+l+" y", strings.ToUpper(l), strings.ReplaceAll(l, "k", "\u212a"), strings.ReplaceAll(l, "s", "\u017f"))
		}
	}
	filtered := 0
	for _, p := range pats {
		pre := newPrefilter(p)
		if pre == nil {
			continue
		}
		re := regexp.MustCompile(p)
		for _, s := range texts {
			if pre.mayMatch(s) {
				continue
			}
			filtered++
			if re.MatchString(s) {
				t.Errorf("%s matches %q, but its prefilter (%q, fold %q) turns the text away", p, s, pre.exact, pre.fold)
			}
		}
	}
	if filtered == 0 {
		t.Fatal("no text was turned away by any prefilter")
	}
}

func (p *prefilter) all() []string {
	if p == nil {
		return nil
	}
	return append(append([]string{}, p.exact...), p.fold...)
}

// sourcePatterns are the string arguments of re(…) and lazyre.New(…) in
// the non-test Go files of dirs.
func sourcePatterns(t *testing.T, dirs ...string) []string {
	var out []string
	fset := token.NewFileSet()
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) != 1 {
					return true
				}
				switch fn := call.Fun.(type) {
				case *ast.Ident:
					if fn.Name != "re" {
						return true
					}
				case *ast.SelectorExpr:
					if x, ok := fn.X.(*ast.Ident); !ok || x.Name != "lazyre" || fn.Sel.Name != "New" {
						return true
					}
				default:
					return true
				}
				if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						out = append(out, s)
					}
				}
				return true
			})
		}
	}
	return out
}
