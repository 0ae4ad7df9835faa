package policy

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// The project zone allows deletes: removing a module, a fixture or build
// output is everyday work. Removing the project's source in bulk is not:
// a top-level directory that is neither build output nor ignored
// (`rm -rf src`, `git rm -r lib/`), or every file of a source language
// across the tree (`find . -name '*.py' -delete`). Committed work can be
// restored, uncommitted work cannot, and an agent rarely means either.

// sourceExts are the extensions of source code and project documents; a
// find that deletes them across the project removes its source.
var sourceExts = map[string]bool{"py": true, "go": true, "js": true, "ts": true, "tsx": true, "jsx": true, "java": true,
	"kt": true, "rs": true, "c": true, "h": true, "cc": true, "cpp": true, "hpp": true, "cs": true, "rb": true, "php": true,
	"swift": true, "scala": true, "ex": true, "exs": true, "erl": true, "hs": true, "ml": true, "lua": true, "sh": true,
	"sql": true, "md": true, "vue": true, "svelte": true, "dart": true, "r": true, "jl": true, "clj": true, "zig": true}

func projectSourceRule() Rule {
	return Rule{ID: "core.zones:project-source", Mode: Ask, Tools: shellTools,
		Desc: "Deleting the project's source in bulk: a top-level directory that is not build output or ignored (rm -rf src, git rm -r lib/), or every file of a source language across the tree (find . -name '*.py' -delete)",
		Match: func(e *Env) string {
			project := e.F.Project
			if project == "" || project == "/" || project == e.F.Home {
				return ""
			}
			var ignored map[string]bool
			var deleted []string // the top-level names the line deletes, which together may name an ecosystem
			for _, tc := range e.Touches() {
				if tc.Effect == callfacts.PathRecursiveDelete {
					if rel, ok := strings.CutPrefix(tc.Path, project+"/"); ok {
						top, _, _ := strings.Cut(rel, "/")
						deleted = append(deleted, top)
						if b := path.Base(rel); strings.HasPrefix(b, "*.") {
							deleted = append(deleted, b) // out/*.mbtiles: the kind of file deleted beside a folder tells its ecosystem too
						}
						if b := path.Base(rel); b != top && buildOutputName(top) {
							deleted = append(deleted, b) // target/wasm32-unknown-unknown: what a build tree holds tells its tool (wasm-pack's pkg beside it)
						}
					}
				}
			}
			topLevel := func(p string) string {
				rel, ok := strings.CutPrefix(p, project+"/")
				if !ok || rel == "" || strings.Contains(rel, "/") || strings.ContainsAny(rel, "*?[$`") {
					return ""
				}
				if buildOutputName(rel) || scratchName(rel) || throwawayRuntimeName(rel) || outputWordName(rel) {
					return ""
				}
				if ignored == nil {
					ignored = gitignoredNames(project)
				}
				if ignored[rel] || generatedTop(e, rel) {
					return ""
				}
				if (ecosystemOutput(project, rel, deleted, runsAfterDelete(e)) || ecosystemRunOutput(e, rel) || rebuiltByOutputOption(e, rel) || coDeletedOutput(rel, deleted) || coDeletedPlainOutput(rel, deleted) || venvRemade(e, rel) || rerunOutput(e, rel)) && !trackedDir(project, rel) {
					return "" // an ecosystem's output, unless git tracks files in it: then it is the project's
				}
				return rel
			}
			for _, tc := range e.Touches() {
				if strings.ContainsAny(tc.Via, "{$`") || strings.Contains(tc.Via, "xargs") {
					continue // targets found at run time (find -exec, xargs): judged by what finds them
				}
				if tc.Effect == callfacts.PathRecursiveDelete && tc.Zone == callfacts.ZoneProject && !viaLinkFind(e, tc.Via) {
					if rel := topLevel(tc.Path); rel != "" && !fileName(rel) {
						return tc.Via + " deletes " + rel + "/, a top-level directory of the project's source"
					}
				}
			}
			for _, c := range e.F.Cmds("git") {
				if sub(c) == "rm" && c.Has("-r") && !c.Has("--cached", "-n", "--dry-run") {
					for _, p := range c.Pos[1:] {
						if rel := topLevel(e.abs(c, strings.TrimSuffix(p, "/"))); rel != "" {
							return c.String() + " deletes " + rel + "/, a top-level directory of the project's source"
						}
					}
				}
			}
			for _, c := range e.F.Cmds("find", "fd") {
				if why := findDeletesSource(e, c); why != "" {
					return why
				}
			}
			for _, c := range e.F.Cmds("mv") {
				if len(c.Pos) < 2 || strings.HasPrefix(c.Pos[len(c.Pos)-1], "$") {
					continue
				}
				if dst := e.abs(c, c.Pos[len(c.Pos)-1]); !within(dst, project) {
					for _, p := range c.Pos[:len(c.Pos)-1] {
						if rel := topLevel(e.abs(c, strings.TrimSuffix(p, "/"))); rel != "" && !fileName(rel) {
							return "mv moves " + rel + "/, a top-level directory of the project's source, out of the project (" + homeRel(dst, e.F.Home) + ")"
						}
					}
				}
			}
			return sourceGlobEmptied(e)
		},
		Catch: []string{"rm -rf src", "rm -rf install", "rm -rf lib app", "git rm -r -q src/", "mv src /tmp/src-old", "for f in src/*.py; do : > \"$f\"; done", "find . -name '*.py' -not -path './.venv/*' -delete", "find . -type f -name '*.go' -exec rm {} +", "rm -rf Library", "rm -rf bin", "rm -rf Library Assets", "rm -rf public", "rm -rf work", "rm -rf tiles"},
		Allow: []string{"rm -rf build dist", "rm -rf src/old_module", "mv src source", "mv build /tmp/old-build", "mv Makefile /tmp/Makefile.bak", "for f in logs/*.log; do : > \"$f\"; done", "find . -name '*.pyc' -delete", "git rm -r --cached src/", "rm -rf node_modules", "git rm src/a.go", "rm -rf Pods Podfile.lock", "rm -rf DerivedData artifacts typechain-types", "find src/gen -name '*.go' -delete", "rm -rf build/ install/ log/", "rm -rf Library Temp Obj", "rm -rf Binaries Intermediate DerivedDataCache", "rm -rf bin obj", "rm -rf _build deps",
			"rm -rf public/ resources/_gen/", "rm -rf work/ .nextflow.log*", "rm -rf ./tiles out/*.mbtiles", "rm -rf TestResults playwright-report", "rm -rf fab/ && kibot -c .kibot.yaml -d fab", "rm -rf apidocs && pdoc -o apidocs mypkg", "rm -rf blib _build Build && perl Build.PL && ./Build test", "rm -rf realm-export/ target/", "rm -rf api_reports site-preview"}}
}

// fileName: a top-level name that reads as one file, not a directory of
// source (Makefile, go.mod, README.md): moving it away is not moving the
// source out.
func fileName(rel string) bool {
	if strings.Contains(rel, ".") {
		return true
	}
	switch rel {
	case "tfplan", "sdkconfig", "sdkconfig.old", // terraform plan -out tfplan, ESP-IDF's generated config: files beside a build's output
		"Makefile", "GNUmakefile", "Dockerfile", "Containerfile", "Rakefile", "Gemfile", "Procfile", "Justfile", "justfile", "Jenkinsfile", "Vagrantfile", "Brewfile", "LICENSE", "README", "CHANGELOG", "NOTICE", "AUTHORS", "CODEOWNERS":
		return true
	}
	return false
}

// scratchName: a top-level name that reads as scratch space, not source
// (tmp, tmp-build, temp, out-2, cache, logs, .hidden, ~).
func scratchName(rel string) bool {
	if strings.HasPrefix(rel, ".") || strings.HasPrefix(rel, "~") {
		return true
	}
	l := strings.ToLower(rel)
	for _, p := range []string{"tmp", "temp", "out", "cache", "log", "build", "dist", "coverage", "artifacts", "backup", "bak", "old", "scratch"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// outputWords, as one word of a top-level name (realm-export,
// api_reports, test-results, site-preview), say a command wrote it: an
// export, a report or a render is made again by running what made it.
var outputWords = map[string]bool{"export": true, "exports": true, "exported": true, "output": true, "outputs": true, "generated": true,
	"report": true, "reports": true, "result": true, "results": true, "dump": true, "dumps": true, "render": true, "renders": true,
	"rendered": true, "preview": true, "previews": true,
	"tmp": true, "temp": true, "cache": true, "caches": true, "build": true, "builds": true, "dist": true, "logs": true, "coverage": true, "artifacts": true, "scratch": true}

// outputWordName: a top-level name one of whose words (split at - _ .)
// is an output word and none a kept word (keptWords, pack_home_write.go).
func outputWordName(rel string) bool {
	out := false
	for _, w := range strings.FieldsFunc(strings.ToLower(rel), func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		if keptWords[w] {
			return false
		}
		out = out || outputWords[w]
	}
	return out
}

// runtimeNouns name what a running program fills (a node's data
// directory, a scratch repository, a run's results), not source.
var runtimeNouns = map[string]bool{"data": true, "db": true, "repo": true, "repos": true, "state": true, "volume": true, "volumes": true,
	"workdir": true, "home": true, "node": true, "nodes": true, "chain": true, "cluster": true, "run": true, "runs": true, "results": true,
	"output": true, "outputs": true, "logs": true, "dump": true, "dumps": true, "snapshot": true, "snapshots": true, "datadir": true, "env": true}

// scratchRunWords make a runtime directory a test or local one: bitcoind's
// regtest and testnet chains, a dev or demo instance.
var scratchRunWords = map[string]bool{"test": true, "regtest": true, "testnet": true, "signet": true, "dev": true, "local": true, "demo": true,
	"sample": true, "e2e": true, "tmp": true, "temp": true, "scratch": true, "throwaway": true, "sandbox": true, "playground": true,
	"emulator": true, "emulators": true} // an emulator is a local stand-in for a service: its data (firebase's emulator-data) is a test's

// throwawayRuntimeName: a top-level name joins a test or local word to
// what a running program fills (test-repo, regtest-data, dev_db,
// e2e-results, local-volumes): a program's scratch state, made again by
// running it. A suite of tests (tests, e2e-tests, test-fixtures) has no
// runtime noun, so it stays the project's source.
func throwawayRuntimeName(rel string) bool {
	throwaway, runtime := false, false
	for _, w := range strings.FieldsFunc(strings.ToLower(rel), func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		w = strings.TrimRight(w, "0123456789")
		throwaway = throwaway || scratchRunWords[w]
		runtime = runtime || runtimeNouns[w]
	}
	return throwaway && runtime
}

// findDeletesSource: a find that deletes every file of a source language
// under the project's root.
func findDeletesSource(e *Env, c *Cmd) string {
	if !c.Has("-delete") && !strings.Contains(" "+strings.Join(c.Args, " ")+" ", " rm ") {
		return ""
	}
	root := "."
	if len(c.Args) > 0 && !strings.HasPrefix(c.Args[0], "-") {
		root = c.Args[0]
	}
	for i, a := range c.Args {
		if (a == "-path" || a == "-ipath" || a == "-wholename" || a == "-regex") && (i == 0 || c.Args[i-1] != "-not" && c.Args[i-1] != "!") {
			return "" // limited to part of the tree (./dist/*, */node_modules/*); -not -path only leaves some out
		}
	}
	if e.abs(c, root) != e.F.Project {
		return ""
	}
	for i, a := range c.Args {
		if (a == "-name" || a == "-iname") && i+1 < len(c.Args) && (i == 0 || c.Args[i-1] != "-not" && c.Args[i-1] != "!") {
			ext := strings.ToLower(strings.TrimPrefix(path.Ext(c.Args[i+1]), "."))
			if strings.HasPrefix(c.Args[i+1], "*.") && sourceExts[ext] && !generatedCodePattern(strings.ToLower(c.Args[i+1])) {
				return c.String() + " deletes every ." + ext + " file of the project"
			}
		}
	}
	return ""
}

// gitignoredNames are the plain top-level names the project's root
// .gitignore ignores (build/, /dist, *.log is not a name); read once per
// call, at most 64 KiB.
// trackedDir: git's index names a file under rel/ (a modules/ or pkg/
// committed as source). The index is read only for a directory about to
// be let go as generated; a name elsewhere in the tree that ends the
// same (src/modules/x) counts too, which only asks more.
func trackedDir(project, rel string) bool {
	f, err := os.Open(path.Join(project, ".git", "index"))
	if err != nil {
		return false
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, 16<<20))
	return bytes.Contains(data, []byte(rel+"/"))
}

func gitignoredNames(project string) map[string]bool {
	names := map[string]bool{}
	f, err := os.Open(path.Join(project, ".gitignore"))
	if err != nil {
		return names
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 64<<10))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "!") || strings.ContainsAny(l, "*?[") {
			continue
		}
		l = strings.TrimSuffix(strings.TrimPrefix(l, "/"), "/")
		if !strings.Contains(l, "/") {
			names[l] = true
		}
	}
	return names
}
