package policy

import (
	"path"
	"strings"
)

// Inside the project, deletes of build output and working files are
// everyday work; only source in bulk is asked about (project-source).
// Some plain names are source in one project and a tool's output in
// another (bin, public, env, release): what else the line does says
// which. They read as output when
//   - the same line deletes a name known as output beside them
//     (rm -rf coverage/ bin/, rm -rf site/ public/, rm -rf env/ build/):
//     a clean-up of a build's products;
//   - the line makes them again after the delete: a virtual environment
//     re-created (rm -rf env && python -m venv env, virtualenv venv, uv
//     venv .env), the folder named again by the creating command.
// A folder git tracks files in stays the project's (the caller asks).

// plainOutputNames: plain names a build or tool writes in many projects
// but that are source in others (Rails' bin/ binstubs, a React app's
// public/ assets, Terraform's env/ stacks).
var plainOutputNames = map[string]bool{"bin": true, "public": true, "env": true, "release": true, "releases": true, "book": true,
	"obj": true, "gen": true, "vendor": true, "venv": true} // not pkg: Go's library source (rm -rf pkg target/release/examples asks)

// coDeletedPlainOutput: rel is a plain output name and the line deletes
// another top-level name known as output (not itself a plain name).
func coDeletedPlainOutput(rel string, deleted []string) bool {
	if !plainOutputNames[strings.ToLower(rel)] {
		return false
	}
	for _, o := range deleted {
		if o != rel && !plainOutputNames[strings.ToLower(o)] && knownOutputName(o) {
			return true
		}
	}
	return false
}

// venvMakers: programs (or python -m modules) that create a virtual
// environment in the folder they are given.
var venvMakers = map[string]bool{"venv": true, "virtualenv": true, "pyvenv": true}

// venvRemade: after deleting rel, the line creates a virtual environment
// in rel again (python3 -m venv rel, virtualenv rel, uv venv rel, conda
// create -p rel).
func venvRemade(e *Env, rel string) bool {
	deleted := false
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Name == "rm" && containsPath(c.Pos, rel) {
			deleted = true
			continue
		}
		if !deleted {
			continue
		}
		maker := venvMakers[c.Name] || c.Name == "uv" && sub(c) == "venv" || (c.Name == "conda" || c.Name == "mamba" || c.Name == "micromamba") && sub(c) == "create"
		for j, a := range c.Args {
			if a == "-m" && j+1 < len(c.Args) && venvMakers[c.Args[j+1]] {
				maker = true
			}
		}
		if !maker {
			continue
		}
		for _, a := range c.Args {
			if strings.TrimSuffix(strings.TrimPrefix(a, "./"), "/") == rel || e.abs(c, a) == path.Join(e.F.Project, rel) {
				return true
			}
		}
	}
	return false
}
