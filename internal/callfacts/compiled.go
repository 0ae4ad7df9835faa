package callfacts

import (
	"path"
	"sort"
	"strings"
)

// Compiled one-shots: go run, rustc, gcc/cc/clang, java Main.java build a
// program from source and run it (go run, java) or leave it to run next
// (rustc -o /tmp/x - && /tmp/x). When the line shows the source — a
// here-document on stdin, or a file written earlier in the line — it is
// read like an interpreter one-liner's code: the paths it writes or
// deletes (os.RemoveAll(filepath.Join(home, "go")), remove_dir_all) and
// the commands it runs become facts.

// compilers are the programs compiledSource reads.
var compilers = map[string]bool{"go": true, "rustc": true, "gcc": true, "cc": true, "clang": true, "g++": true, "clang++": true, "tcc": true, "zig": true,
	"java": true, "kotlinc": true, "scala": true, "swift": true, "crystal": true, "nim": true, "dotnet-script": true, "cargo": true}

// cargoBuilds are cargo's subcommands that compile the package, and so
// run its build script (build.rs) first; cargoRuns also run its main.
var cargoBuilds = map[string]bool{"build": true, "b": true, "check": true, "c": true, "test": true, "t": true, "bench": true, "run": true, "r": true,
	"clippy": true, "doc": true, "install": true}
var cargoRuns = map[string]bool{"run": true, "r": true}

// compiledSource returns the source text c builds when the line shows it.
func (n *normalizer) compiledSource(c *Cmd, stdin *text) string {
	var files []string
	fromStdin := false
	switch c.Name {
	case "go":
		if c.Sub(0) != "run" {
			return ""
		}
		for _, p := range c.Pos[1:] {
			if p == "-" {
				fromStdin = true
			}
			if strings.HasSuffix(p, ".go") {
				files = append(files, p)
			} else if p == "." || strings.HasPrefix(p, "./") {
				files = append(files, n.goFilesIn(NormPath(p, n.cwd, n.home))...) // go run ./tools/gen: the package's files the line wrote
			}
		}
	case "rustc", "gcc", "cc", "clang", "g++", "clang++", "tcc", "zig", "java", "kotlinc", "scala", "swift", "crystal", "nim", "dotnet-script":
		for i, a := range c.Args {
			if a == "-" && (i == 0 || c.Args[i-1] != "-o") {
				fromStdin = true
			}
			switch path.Ext(a) {
			case ".rs", ".c", ".cc", ".cpp", ".java", ".kt", ".kts", ".scala", ".swift", ".cr", ".nim", ".zig", ".csx":
				files = append(files, a)
			}
		}
	case "jshell", "groovysh", "kotlinc-jvm":
		// REPLs: the code fed on stdin (jshell <<< 'new ProcessBuilder(…)')
		// runs as a script does (jshell run.jsh)
		fromStdin = len(c.Pos) == 0 || c.Pos[0] == "-"
		for _, p := range c.Pos {
			if strings.HasSuffix(p, ".jsh") || strings.HasSuffix(p, ".groovy") {
				files = append(files, p)
			}
		}
	case "cargo":
		// cargo build runs build.rs before it compiles anything: a build
		// script the line wrote runs on this machine (cargo run runs
		// src/main.rs too); cargo install runs it only for --path.
		if s := c.Sub(0); !cargoBuilds[s] || s == "install" && !c.Has("--path") {
			return ""
		}
		dir := n.cwd
		if m := c.OptValues(map[string]bool{"--manifest-path": true}); len(m) > 0 {
			dir = path.Dir(NormPath(m[0], n.cwd, n.home))
		}
		files = append(files, path.Join(dir, "build.rs"))
		if cargoRuns[c.Sub(0)] {
			files = append(files, path.Join(dir, "src/main.rs"))
		}
	default:
		return ""
	}
	var src strings.Builder
	if fromStdin && stdin != nil && stdin.known {
		src.WriteString(stdin.s)
	}
	for _, f := range files {
		if t, ok := n.files[NormPath(f, n.cwd, n.home)]; ok && t.known {
			src.WriteString("\n" + t.s)
		}
	}
	return src.String()
}

// goFilesIn are the .go files the line wrote in dir, sorted.
func (n *normalizer) goFilesIn(dir string) []string {
	var out []string
	for f := range n.files {
		if path.Dir(f) == dir && strings.HasSuffix(f, ".go") {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}
