package callfacts

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// A PowerShell cmdlet of a cloud or directory module names its verb in
// its own name (Remove-AzResourceGroup): pscmdlets.txt says which nouns
// are such modules' and which verbs destroy or only read, so a cmdlet
// nobody listed is judged as an unknown CLI's verb would be.

//go:embed pscmdlets.txt
var psCmdletsText string

type psCmdletTable struct {
	modules        []string
	destroy, reads map[string]bool
}

var psCmdlets = sync.OnceValue(func() psCmdletTable {
	t := psCmdletTable{destroy: map[string]bool{}, reads: map[string]bool{}}
	datatable.Must("pscmdlets.txt", psCmdletsText, 2, func(l datatable.Line) error {
		switch l.Fields[0] {
		case "modules":
			t.modules = append(t.modules, l.Fields[1:]...)
		case "destroy", "reads":
			m := map[string]map[string]bool{"destroy": t.destroy, "reads": t.reads}[l.Fields[0]]
			for _, v := range l.Fields[1:] {
				m[strings.ToLower(v)] = true
			}
		default:
			return l.Errorf("list %q: want modules, destroy or reads", l.Fields[0])
		}
		return nil
	})
	return t
})

// cmdletVerbWord is the verb word the unknown-tool reading (verbs.go)
// takes for a module cmdlet: "remove" for a destroy verb, the verb
// itself when verbs.txt lists it as a change, else "provision" (a
// change); "" for a read verb, a local cmdlet or no cmdlet.
func cmdletVerbWord(name string) string {
	verb, noun, ok := strings.Cut(name, "-")
	if !ok || verb == "" || strings.ContainsAny(noun, "-./$") {
		return ""
	}
	t := psCmdlets()
	moduleNoun := false
	for _, p := range t.modules {
		if len(noun) > len(p) && strings.HasPrefix(noun, p) && noun[len(p)] >= 'A' && noun[len(p)] <= 'Z' {
			moduleNoun = true
			break
		}
	}
	v := strings.ToLower(verb)
	switch {
	case !moduleNoun || t.reads[v]:
		return ""
	case t.destroy[v]:
		return "remove"
	case destroyVerbs().changes[v]:
		return v
	}
	return "provision"
}

// ProgramBase is a program word's last path element as written (its
// case kept, unlike ProgramName): a cmdlet's Verb-Noun capitals.
func ProgramBase(raw string) string {
	raw = strings.ReplaceAll(raw, "\\", "/")
	return raw[strings.LastIndexByte(raw, '/')+1:]
}
