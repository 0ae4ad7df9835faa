package policy

import (
	"path"
	"strings"
)

// ecosystemRunOutput: the top-level directory rel is one an ecosystem of
// gendirs.txt generates, and the same line runs that ecosystem's root
// file (rm -rf staticfiles/ && python manage.py collectstatic, rm -rf
// _build && mix compile): the file the marker names is there, since the
// line runs it, even where the project on disk is not read.
func ecosystemRunOutput(e *Env, rel string) bool {
	for _, g := range genDirs().ecosystems {
		if !g.has(rel) || strings.ContainsAny(g.marker, "@/") {
			continue
		}
		if strings.ContainsAny(g.marker, "*?[") {
			if lineNamesFile(e, g.marker) {
				return true // rm -rf pkg/ && gem build x.gemspec: the line builds from the marker
			}
			continue
		}
		for i := range e.F.Commands {
			c := &e.F.Commands[i]
			if c.Name == g.marker || len(c.Pos) > 0 && path.Base(c.Pos[0]) == g.marker && (isShellOrInterp(c.Name) || c.Name == "php") {
				return true
			}
		}
	}
	return false
}

// lineNamesFile: an argument of a command of the line is a file whose
// name matches the glob (gem build kettle.gemspec for *.gemspec,
// dotnet build App.csproj for *.csproj).
func lineNamesFile(e *Env, glob string) bool {
	for i := range e.F.Commands {
		for _, p := range e.F.Commands[i].Pos {
			if ok, _ := path.Match(glob, path.Base(p)); ok && !strings.ContainsAny(p, "*?[") {
				return true
			}
		}
	}
	return false
}
