package policy

import (
	_ "embed"
	"os"
	"path"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/callfacts"
	"github.com/warden-dev/warden/internal/datatable"
)

// gendirsText lists, as data, the directories builds, engines and
// frameworks generate in a project (gendirs.txt): by name alone
// (node_modules, .next, __pycache__), or by name within an ecosystem the
// project's root file or the line itself shows (Unity's Library beside
// Temp and Obj, or in a project with ProjectSettings/ProjectVersion.txt).
//
//go:embed gendirs.txt
var gendirsText string

// genEcosystem is one line of gendirs.txt with a marker.
type genEcosystem struct {
	name, marker string
	dirs         datatable.Names
}

func (g genEcosystem) has(name string) bool { return g.dirs.Has(name) }

type genTable struct {
	byName     genEcosystem   // the marker-less lines, merged
	ecosystems []genEcosystem // the lines with a marker
}

var genDirs = sync.OnceValue(func() genTable {
	var t genTable
	datatable.Must("gendirs.txt", gendirsText, 3, func(l datatable.Line) error {
		g := &t.byName
		if l.Fields[1] != "-" {
			t.ecosystems = append(t.ecosystems, genEcosystem{name: l.Fields[0], marker: l.Fields[1]})
			g = &t.ecosystems[len(t.ecosystems)-1]
		}
		for _, n := range l.Fields[2:] {
			if err := g.dirs.Add(n); err != nil {
				return l.Errorf("%v", err)
			}
		}
		return nil
	})
	return t
})

// buildOutputName: name is a directory builds and tools make and remake
// whatever the project (build, dist, node_modules, .next, bazel-bin):
// deleting it loses nothing a build does not bring back.
func buildOutputName(name string) bool { return genDirs().byName.has(name) }

// ecosystemOutput: the top-level name rel of project is a directory its
// ecosystem generates (Unity's Library, Unreal's Intermediate, .NET's
// obj): the ecosystem's root file is in the project, or the same line
// deletes another top-level directory of the same ecosystem (others).
// The root file is looked for only then, for a directory about to be
// flagged. A store the project's own script fills (@rebuilt) counts when
// the line runs a program to fill it again (rebuilt).
func ecosystemOutput(project, rel string, others []string, rebuilt bool) bool {
	for _, g := range genDirs().ecosystems {
		if !g.has(rel) {
			continue
		}
		if g.marker == "@untracked" {
			return true // the caller asks git whether it tracks the folder
		}
		if glob, ok := strings.CutPrefix(g.marker, "@with:"); ok {
			for _, o := range others {
				if m, _ := path.Match(glob, o); m && o != rel {
					return true
				}
			}
			continue
		}
		if g.marker == "@rebuilt" {
			if rebuilt {
				return true
			}
			continue
		}
		for _, o := range others {
			if o != rel && g.has(o) {
				return true
			}
		}
		if project != "" && markerAt(project, g.marker) {
			return true
		}
	}
	return false
}

// markerAt: the root file marker (a path, or a glob of one name) exists
// in project.
func markerAt(project, marker string) bool {
	if !strings.ContainsAny(marker, "*?[") {
		return fileExists(path.Join(project, marker))
	}
	d, err := os.Open(project)
	if err != nil {
		return false
	}
	defer d.Close()
	names, _ := d.Readdirnames(4096) // a root larger than this is not read through for a marker
	for _, n := range names {
		if ok, _ := path.Match(marker, n); ok {
			return true
		}
	}
	return false
}

// onlyGenerated: specs (paths below where the command runs: git clean's
// pathspecs) name at least one path, and each is generated output: a
// build or scratch directory at the top (Builds/, .godot), one of an
// ecosystem's the other specs confirm (Library/ beside Temp/), or a path
// below whose last name is build output or a tool's scratch (Saved/Logs,
// web/node_modules, .cache/x).
func onlyGenerated(specs []string) bool {
	var tops []string
	for _, p := range specs {
		top, _, _ := strings.Cut(strings.TrimPrefix(p, "./"), "/")
		tops = append(tops, top)
	}
	for _, p := range specs {
		p = strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/")
		if p == "" || p == "." || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "..") || strings.HasPrefix(p, ":") || strings.ContainsAny(p, "~$*?[") {
			return false
		}
		top, _, nested := strings.Cut(p, "/")
		last := path.Base(p)
		switch {
		case !nested && (buildOutputName(p) || scratchName(p) || ecosystemOutput("", p, tops, false)):
		case nested && (buildOutputName(last) || callfacts.ScratchDir(last) || buildOutputName(top) || ecosystemOutput("", top, tops, false)):
		default:
			return false
		}
	}
	return len(specs) > 0
}

// runsAfterDelete: after a delete, the line runs an interpreter or a
// project runner (python ingest.py, npm run index, make embeddings):
// what it deleted may be filled again there.
func runsAfterDelete(e *Env) bool {
	runners := opsList("runner-cli")
	deleted := false
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Effect == callfacts.EffectDelete {
			deleted = true
			continue
		}
		if deleted && c.Name != "sh" && c.Name != "bash" && (callfacts.IsInterpreter(c.Name) || runners[c.Name]) {
			return true
		}
	}
	return false
}
