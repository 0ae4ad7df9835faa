package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A package manager told to install what the project itself declares
// (cpanm --installdeps ., opam install . --deps-only, cabal install
// --only-dependencies, luarocks install --only-deps x.rockspec, gem install
// -g) sets the project up, as pip install -r requirements.txt, bundle
// install or composer install do: the dependencies are the ones its
// authors chose, and nothing names a tool to add for every project. Which
// options say so, and which manifests a target may name, is
// installscope.txt (deps=, depfiles=). Only the project's own directory
// counts: the deps of a folder under ~/Downloads, of /tmp/x, of a URL or of
// a named registry package, or fetched from a mirror a URL names, run and
// install code nobody here chose, and an install as root changes the
// machine: those keep their verdicts.

// projectDepsInstall reports whether c installs only the declared
// dependencies of the project it runs in.
func projectDepsInstall(e *Env, c *Cmd, s *installScope) bool {
	if s == nil || len(s.deps) == 0 || rootWrapper(c) != "" || !slices.ContainsFunc(s.deps, func(o string) bool { return c.Has(o) || optValue(c, o) != "" }) {
		return false
	}
	if slices.ContainsFunc(c.Args, func(a string) bool { return strings.Contains(a, "://") }) {
		return false // --mirror=http://…, --server=https://…: the deps come from whoever runs it
	}
	if !projectZone(callfacts.ZoneOf(e.abs(c, "."), e.F.Home, e.F.Project)) {
		return false // cd ~/Downloads/x && cpanm --installdeps .
	}
	skip := map[string]bool{}
	for _, o := range s.into {
		if v := optValue(c, o); v != "" {
			if callfacts.ZoneOf(e.abs(c, v), e.F.Home, e.F.Project) == callfacts.ZoneSystem {
				return false // cpanm -L /usr/local/lib/perl5 --installdeps .
			}
			skip[v] = true
		}
	}
	for i, p := range c.Pos {
		if i == 0 && p == c.Sub(0) && slices.Contains(s.installs, p) || skip[p] {
			continue // the install subcommand; a local-lib's directory
		}
		if !depsTarget(p, s.depfiles) || !projectZone(callfacts.ZoneOf(e.abs(c, p), e.F.Home, e.F.Project)) {
			return false
		}
	}
	// a manifest named by the deps option itself (gem install --file=Gemfile)
	for _, o := range s.deps {
		if v, ok := cutOptIn(c, o); ok && (!depsTarget(v, s.depfiles) || !projectZone(callfacts.ZoneOf(e.abs(c, v), e.F.Home, e.F.Project))) {
			return false
		}
	}
	return true
}

// cutOptIn is the value of c's --opt=value argument.
func cutOptIn(c *Cmd, o string) (string, bool) {
	for _, a := range c.Args {
		if v, ok := cutOpt(a, o); ok {
			return v, true
		}
	}
	return "", false
}

// depsTarget reports whether a deps target names a path (., ./x, dir/x,
// ~/x, /x) or one of the manager's manifests, not a registry package
// (Moose, lens), a URL or a forge address (git@host:x).
func depsTarget(p string, depfiles []string) bool {
	if p == "" || strings.Contains(p, ":") || strings.ContainsAny(p, "$`") {
		return false
	}
	if p == "." || p == ".." || strings.ContainsRune(p, '/') {
		return true
	}
	for _, f := range depfiles {
		if ok, _ := path.Match(f, p); ok {
			return true
		}
	}
	return false
}

// projectZone: the project's own tree (its root, its subfolders).
func projectZone(z callfacts.Zone) bool {
	return z == callfacts.ZoneProject || z == callfacts.ZoneRepo
}

// installsIntoProject reports whether one of installscope.txt's into=
// options puts c's install inside the project (cpanm -L local Moose,
// gem install -i vendor/gems rake): a host-action line that names the
// whole manager (cpanm) does not then count it as a global install.
func installsIntoProject(e *Env, c *Cmd, s *installScope) bool {
	if s == nil || rootWrapper(c) != "" {
		return false
	}
	for _, o := range s.into {
		if v := optValue(c, o); v != "" {
			return projectZone(callfacts.ZoneOf(e.abs(c, v), e.F.Home, e.F.Project))
		}
	}
	return false
}

// localDepsOrLib reports whether a host action of the kind "global" is
// the project's own: its declared dependencies, or an install into a
// library inside it.
func localDepsOrLib(e *Env, c *Cmd, a *callfacts.HostAct) bool {
	if a.Kind != "global" {
		return false
	}
	s := installScopes()[c.Name]
	return projectDepsInstall(e, c, s) || installsIntoProject(e, c, s)
}
