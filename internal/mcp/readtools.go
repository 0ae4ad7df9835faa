package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// The confirm judge reads the project through three read-only tools that
// warden implements itself: Read, Glob and Grep. Every path is resolved
// inside the project root — relative paths against it, symlinks followed —
// and refused when it lands outside, so the judge sees the project and
// nothing else (no ~/.ssh, no /etc, no ../other-repo).

// Bounds of what one tool call returns to the model.
const (
	readMaxLines   = 400
	readMaxBytes   = 64 << 10
	grepMaxMatches = 100
	globMaxFiles   = 200
	scanMaxFiles   = 20000
	grepMaxFile    = 2 << 20
)

// projectFS answers the judge's tool calls inside root.
type projectFS struct {
	root string // absolute, symlinks resolved
}

func newProjectFS(root string) (*projectFS, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return &projectFS{root: abs}, nil
}

// resolve turns a path the model gave into an absolute path inside the
// root, or an error the model reads.
func (p *projectFS) resolve(name string) (string, error) {
	if strings.TrimSpace(name) == "" {
		return p.root, nil
	}
	abs := name
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(p.root, name)
	}
	abs = filepath.Clean(abs)
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if !p.inside(abs) {
			return "", fmt.Errorf("%s is outside the project (%s); only files inside it can be read", name, p.root)
		}
		return "", fmt.Errorf("%s does not exist in the project", name)
	}
	if !p.inside(real) {
		return "", fmt.Errorf("%s is outside the project (%s); only files inside it can be read", name, p.root)
	}
	return real, nil
}

func (p *projectFS) inside(abs string) bool {
	rel, err := filepath.Rel(p.root, abs)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func (p *projectFS) rel(abs string) string {
	r, err := filepath.Rel(p.root, abs)
	if err != nil {
		return abs
	}
	return filepath.ToSlash(r)
}

// readIn, globIn and grepIn are the tools' inputs.
type readIn struct {
	Path   string `json:"path"`
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
}

type globIn struct {
	Pattern string `json:"pattern"`
}

type grepIn struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path"`
	Glob    string `json:"glob"`
}

// call runs the tool name with its JSON input and returns the text for
// the model; an error is returned to the model as a tool error.
func (p *projectFS) call(name string, input json.RawMessage) (string, error) {
	switch name {
	case "Read":
		var in readIn
		if err := json.Unmarshal(input, &in); err != nil || in.Path == "" {
			return "", fmt.Errorf("Read needs {\"path\": \"file in the project\"}")
		}
		return p.read(in)
	case "Glob":
		var in globIn
		if err := json.Unmarshal(input, &in); err != nil || in.Pattern == "" {
			return "", fmt.Errorf("Glob needs {\"pattern\": \"**/*.go\"}")
		}
		return p.glob(in.Pattern)
	case "Grep":
		var in grepIn
		if err := json.Unmarshal(input, &in); err != nil || in.Pattern == "" {
			return "", fmt.Errorf("Grep needs {\"pattern\": \"regular expression\"}")
		}
		return p.grep(in)
	}
	return "", fmt.Errorf("no tool %q; use Read, Glob or Grep", name)
}

// read returns lines numbered from 1 like `cat -n`, from offset (1-based).
func (p *projectFS) read(in readIn) (string, error) {
	abs, err := p.resolve(in.Path)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		return "", fmt.Errorf("%s is a directory; use Glob to list it", in.Path)
	}
	f, err := os.Open(abs)
	if err != nil {
		return "", err
	}
	defer f.Close()
	start := max(in.Offset, 1)
	limit := in.Limit
	if limit <= 0 || limit > readMaxLines {
		limit = readMaxLines
	}
	var b strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n, shown := 0, 0
	for sc.Scan() {
		n++
		if n < start {
			continue
		}
		if shown == limit || b.Len() > readMaxBytes {
			fmt.Fprintf(&b, "… (more lines; Read again with offset %d)\n", n)
			break
		}
		line := sc.Text()
		if bytes.IndexByte([]byte(line), 0) >= 0 {
			return "", fmt.Errorf("%s is a binary file", in.Path)
		}
		fmt.Fprintf(&b, "%6d\t%s\n", n, clip(line, 2000))
		shown++
	}
	if shown == 0 {
		return fmt.Sprintf("(%s has %d lines; nothing from line %d)", p.rel(abs), n, start), nil
	}
	return b.String(), nil
}

// walk visits the project's regular files (not .git, nor what the
// skipDirs name), stopping after scanMaxFiles.
func (p *projectFS) walk(from string, visit func(abs, rel string) bool) {
	count := 0
	filepath.WalkDir(from, func(abs string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if abs != from && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		count++
		if count > scanMaxFiles || !visit(abs, p.rel(abs)) {
			return filepath.SkipAll
		}
		return nil
	})
}

func skipDir(name string) bool {
	switch name {
	case ".git", "node_modules", ".venv", "venv", "__pycache__", "target", "dist", ".warden":
		return true
	}
	return false
}

// glob lists files matching pattern (** matches any number of
// directories), sorted.
func (p *projectFS) glob(pattern string) (string, error) {
	if filepath.IsAbs(pattern) || strings.Contains(pattern, "..") {
		return "", fmt.Errorf("pattern %q must be relative to the project and stay inside it", pattern)
	}
	if _, err := path.Match(strings.ReplaceAll(pattern, "**", "*"), ""); err != nil {
		return "", fmt.Errorf("bad pattern %q: %v", pattern, err)
	}
	var hits []string
	p.walk(p.root, func(_, rel string) bool {
		if globMatch(pattern, rel) {
			hits = append(hits, rel)
		}
		return true
	})
	sort.Strings(hits)
	if len(hits) == 0 {
		return "(no files match " + pattern + ")", nil
	}
	more := ""
	if len(hits) > globMaxFiles {
		more = fmt.Sprintf("… and %d more\n", len(hits)-globMaxFiles)
		hits = hits[:globMaxFiles]
	}
	return strings.Join(hits, "\n") + "\n" + more, nil
}

// globMatch matches a slash path against a pattern whose ** segments
// match zero or more directories; a pattern without a slash matches the
// base name anywhere (as "*.go" does in most tools).
func globMatch(pattern, name string) bool {
	if !strings.Contains(pattern, "/") {
		ok, _ := path.Match(pattern, path.Base(name))
		return ok
	}
	return matchSegs(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if matchSegs(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// grep finds lines matching a regular expression, as path:line: text.
func (p *projectFS) grep(in grepIn) (string, error) {
	re, err := regexp.Compile(in.Pattern)
	if err != nil {
		return "", fmt.Errorf("bad regular expression %q: %v", in.Pattern, err)
	}
	from, err := p.resolve(in.Path)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	matches := 0
	search := func(abs, rel string) bool {
		if in.Glob != "" && !globMatch(in.Glob, rel) {
			return true
		}
		fi, err := os.Stat(abs)
		if err != nil || fi.Size() > grepMaxFile {
			return true
		}
		data, err := os.ReadFile(abs)
		if err != nil || bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
			return true
		}
		for i, line := range strings.Split(string(data), "\n") {
			if re.MatchString(line) {
				fmt.Fprintf(&b, "%s:%d: %s\n", rel, i+1, clip(strings.TrimSpace(line), 300))
				matches++
				if matches >= grepMaxMatches {
					b.WriteString("… (more matches; narrow the pattern, path or glob)\n")
					return false
				}
			}
		}
		return true
	}
	if fi, err := os.Stat(from); err == nil && !fi.IsDir() {
		search(from, p.rel(from))
	} else {
		p.walk(from, search)
	}
	if matches == 0 {
		return "(no matches for " + in.Pattern + ")", nil
	}
	return b.String(), nil
}

// readToolSchemas are the tools as the Messages API declares them.
var readToolSchemas = []struct {
	Name, Description string
	Properties        map[string]any
	Required          []string
}{
	{"Read", "Read a file of the project, lines numbered from 1. Paths are relative to the project root.",
		map[string]any{
			"path":   map[string]any{"type": "string", "description": "file path relative to the project root"},
			"offset": map[string]any{"type": "integer", "description": "first line to show (1-based)"},
			"limit":  map[string]any{"type": "integer", "description": "how many lines (at most 400)"},
		}, []string{"path"}},
	{"Glob", "List the project's files matching a glob pattern; ** matches any number of directories (e.g. **/*_test.go).",
		map[string]any{"pattern": map[string]any{"type": "string", "description": "glob pattern relative to the project root"}},
		[]string{"pattern"}},
	{"Grep", "Search the project's files for a regular expression (RE2); prints path:line: text.",
		map[string]any{
			"pattern": map[string]any{"type": "string", "description": "regular expression"},
			"path":    map[string]any{"type": "string", "description": "file or directory to search (default: the whole project)"},
			"glob":    map[string]any{"type": "string", "description": "only files matching this glob, e.g. *.go"},
		}, []string{"pattern"}},
}
