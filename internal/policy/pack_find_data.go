package policy

import (
	"path"
	"strings"
)

// A find that deletes by pattern is asked about when what it selects is
// the project's source. What it selects is data or output — and routine
// to prune — when no pattern names source (an extension code, docs or
// config are written in, or a bare wildcard), and either the pattern has
// an extension of its own (*.ckpt, *.parquet), the search starts in a
// directory below the project's root that is not a source directory
// (checkpoints/, outputs/, work/), or an age test keeps only stale files
// there (-mtime +14). With an age test in such a directory, a kind of
// file people also write by hand (tables, JSON, text) is stale output
// too; code and docs stay source at any age.

// handWrittenExts are extensions people write by hand: code, docs, config.
var handWrittenExts = map[string]bool{".go": true, ".py": true, ".js": true, ".mjs": true, ".cjs": true, ".ts": true, ".tsx": true, ".jsx": true,
	".rs": true, ".java": true, ".kt": true, ".kts": true, ".scala": true, ".c": true, ".h": true, ".cc": true, ".cpp": true, ".hpp": true,
	".cs": true, ".fs": true, ".rb": true, ".php": true, ".swift": true, ".m": true, ".mm": true, ".sh": true, ".bash": true, ".zsh": true,
	".ps1": true, ".lua": true, ".pl": true, ".pm": true, ".r": true, ".jl": true, ".dart": true, ".ex": true, ".exs": true, ".erl": true,
	".hs": true, ".ml": true, ".clj": true, ".vue": true, ".svelte": true, ".sql": true, ".proto": true, ".graphql": true, ".md": true,
	".rst": true, ".txt": true, ".adoc": true, ".tex": true, ".json": true, ".yaml": true, ".yml": true, ".toml": true, ".ini": true,
	".cfg": true, ".conf": true, ".xml": true, ".html": true, ".css": true, ".scss": true, ".less": true, ".ipynb": true, ".env": true,
	".lock": true, ".gradle": true, ".tf": true, ".hcl": true, ".nix": true, ".smk": true, ".nf": true, ".wdl": true, ".cwl": true,
	".rmd": true, ".qmd": true, ".org": true, ".sol": true, ".zig": true, ".nim": true, ".v": true, ".sv": true, ".vhd": true,
	".snap": true, ".golden": true, ".approved": true, ".po": true, ".csv": true, ".tsv": true} // snapshots and goldens are reviewed test expectations; tables are often hand-kept

// sourceDirs hold source, whatever the pattern inside them selects.
var sourceDirs = map[string]bool{"src": true, "lib": true, "app": true, "pkg": true, "internal": true, "cmd": true, "test": true, "tests": true,
	"spec": true, "docs": true, "doc": true, "include": true, "scripts": true, "packages": true, "modules": true, "components": true, ".github": true, "config": true}

// findSelectsData reports whether a find over starts, with name patterns
// pats, selects data or output rather than source (see above).
func findSelectsData(c *Cmd, starts, pats []string) bool {
	atRoot := false
	for _, s := range starts {
		s = strings.TrimPrefix(strings.TrimSuffix(s, "/"), "./")
		first, _, _ := strings.Cut(s, "/")
		if s == "" || s == "." || s == "$PWD" || s == "${PWD}" || strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") || strings.HasPrefix(s, "$") ||
			strings.HasPrefix(s, "..") || sourceDirs[first] {
			atRoot = true
		}
	}
	aged := false
	for i, a := range c.Args {
		switch a {
		case "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin":
			aged = aged || i+1 < len(c.Args) && strings.HasPrefix(c.Args[i+1], "+")
		case "-newer", "-newermt", "-not", "!":
			if a == "-not" || a == "!" {
				return false
			}
		}
	}
	if len(pats) == 0 {
		return aged && !atRoot
	}
	for _, p := range pats {
		b := strings.ToLower(path.Base(p))
		if strings.Contains(p, "/") && strings.Trim(b, "*?.") == "" {
			continue // -path './cache/*': where, not what; the other tests say what
		}
		ext := path.Ext(b)
		if strings.ContainsAny(ext, "*?[") {
			ext = "" // events.out.tfevents.*: no extension it can be judged by
		}
		if strings.Trim(b, "*?.") == "" {
			return false
		}
		if handWrittenExts[ext] && !(aged && !atRoot && !sourceExts[strings.TrimPrefix(ext, ".")]) && !outputFamily(starts, b, ext) {
			// exports/ -name '*.csv' -mtime +30: stale tables in an output
			// folder are housekeeping; stale code anywhere, or tables
			// across the whole tree, are not
			return false
		}
		if ext == "" && atRoot && !aged {
			return false
		}
	}
	return true
}

// foreignCompose names the compose file or project directory outside the
// project that a compose command works on ("" for the project's own
// stack): -f FILE, --file, --project-directory, or COMPOSE_FILE set on the
// line.
func foreignCompose(e *Env, c *Cmd) string {
	var cands []string
	for _, o := range []string{"-f", "--file", "--project-directory"} {
		if v := optValue(c, o); v != "" {
			cands = append(cands, v)
		}
	}
	if c.Name != "docker" {
		// docker-compose's options before its subcommand are set aside
		// from Args: read them from the line
		for _, m := range composeFileOpt.FindAllStringSubmatch(e.F.Command, -1) {
			cands = append(cands, strings.Trim(m[1], `"'`))
		}
	}
	if m := composeFileVar.FindStringSubmatch(e.F.Command); m != nil {
		cands = append(cands, strings.Split(strings.Trim(m[1], `"'`), ":")...)
	}
	for _, v := range cands {
		if strings.Contains(v, "://") {
			return v
		}
		p := e.abs(c, v)
		if !under(p, e.F.Project) && p != e.F.Project {
			return homeRel(p, e.F.Home)
		}
	}
	return ""
}

var composeFileOpt = re(`(?:^|\s)(?:-f|--file|--project-directory)(?:=|\s+)("[^"]*"|'[^']*'|[^\s;&|]+)`)

var composeFileVar = re(`\bCOMPOSE_FILE=("[^"]*"|'[^']*'|\S+)`)

// testEnvShown: a test or CI env file of the project (.env.test,
// .env.ci) written with text the line shows in full (a here-document,
// echo, printf): fixtures for the test run, not the user's secrets; a
// secret in the text is core.secrets:in-content's.
func testEnvShown(e *Env, p PathRef) bool {
	if !testEnvNames[strings.ToLower(path.Base(p.Path))] || !under(p.Path, e.F.Project) {
		return false
	}
	if p.Via != ">" && p.Via != ">>" && p.Via != "tee" {
		return false
	}
	return !strings.Contains(e.F.Command, "$(") && !strings.Contains(e.F.Command, "`") && !strings.Contains(e.F.Command, "<(")
}

// testEnvRemoved: p is a test run's env file of the project (.env.test,
// .env.ci) removed with rm or unlink: it holds the test suite's settings,
// not the developer's secrets, and the suite's setup writes it again.
func testEnvRemoved(e *Env, p PathRef) bool {
	return (p.Via == "rm" || p.Via == "unlink") && testEnvNames[strings.ToLower(path.Base(p.Path))] && under(p.Path, e.F.Project)
}

// testEnvRead: a test run's env file of the project (.env.test, .env.ci)
// read: the suite's settings, kept in the repository for every run; a
// .local override (.env.test.local) is the developer's own and stays asked.
func testEnvRead(e *Env, p PathRef) bool {
	b := strings.ToLower(path.Base(p.Path))
	return testEnvNames[b] && !strings.HasSuffix(b, ".local") && under(p.Path, e.F.Project)
}

var testEnvNames = map[string]bool{".env.test": true, ".env.testing": true, ".env.ci": true, ".env.e2e": true, ".env.test.local": true, ".env.spec": true}

// recreatedLater reports whether a later task of the same run recreates
// what a wipe task dropped (rake db:drop db:create db:migrate): a reset.
func recreatedLater(tasks []string) bool {
	re := opsList("wipe-recreate")
	for _, t := range tasks {
		if re[strings.ToLower(t)] {
			return true
		}
		for _, w := range wordsOf(t) {
			if re[w] {
				return true
			}
		}
	}
	return false
}
