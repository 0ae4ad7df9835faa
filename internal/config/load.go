package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"

	"github.com/BurntSushi/toml"

	"github.com/warden-dev/warden/internal/paths"
)

// Where an effective value came from.
const (
	srcDefault = "default"
	srcUser    = "user"
	srcProject = "project"
)

// resolution is the outcome of reading both files against a registry.
type resolution struct {
	cfg      *Config
	src      []string // source of each registry row's value
	userFile string
	user     *file // nil when absent; without data when unusable
	project  *file
	problems []Problem
}

// resolve applies the user file, then the project file, to the defaults of
// reg. It is Load with the registry as a parameter, so tests can exercise
// policies that no real key uses yet.
func resolve(reg []Key, userFile, projectDir string) *resolution {
	r := &resolution{cfg: defaultsFrom(reg), src: make([]string, len(reg)), userFile: userFile}
	for i := range r.src {
		r.src[i] = srcDefault
	}
	user, p := readFile(userFile)
	r.problems = append(r.problems, p...)
	if user != nil {
		r.user = user
		r.problems = append(r.problems, r.apply(reg, user, false)...)
	}
	if projectDir == "" {
		return r
	}
	project, p := readFile(paths.ProjectConfig(projectDir))
	// In the home directory the project file can be the user file itself
	// (~/.warden/config.toml); it is then not a project file at all.
	if project != nil && user != nil && os.SameFile(project.info, user.info) {
		return r
	}
	r.problems = append(r.problems, p...)
	if project != nil {
		r.project = project
		r.problems = append(r.problems, r.apply(reg, project, true)...)
	}
	return r
}

// apply merges f's values into r.cfg and returns f's problems in line order.
func (r *resolution) apply(reg []Key, f *file, isProject bool) []Problem {
	var ps []Problem
	for i := range reg {
		k := &reg[i]
		raw, ok := lookup(f.data, k.Name)
		if !ok {
			continue
		}
		if isProject && k.Policy == UserOnly {
			ps = append(ps, f.problem(k.Name, fmt.Sprintf(
				"%s is user-only: a project config may not set it, because a project may only tighten guards; move it to the user config %s or delete it here",
				k.Name, r.userFile)))
			continue
		}
		v, msg := convert(k, raw)
		if msg != "" {
			ps = append(ps, f.problem(k.Name, msg))
			continue
		}
		if !isProject {
			setField(r.cfg, k, v)
			r.src[i] = srcUser
			continue
		}
		if msg := r.tighten(k, i, v); msg != "" {
			ps = append(ps, f.problem(k.Name, msg))
		}
	}
	ps = append(ps, unknownKeys(reg, f, f.data, "")...)
	sortProblems(ps)
	return ps
}

// tighten applies a valid project value v of key k (row i) under k's policy
// and returns why it was ignored, if it was.
func (r *resolution) tighten(k *Key, i int, v any) string {
	cur := getField(r.cfg, k)
	whose := "the user value"
	if r.src[i] == srcDefault {
		whose = "the default"
	}
	use := func() { setField(r.cfg, k, v); r.src[i] = srcProject }
	switch k.Policy {
	case Free:
		use()
	case RaiseOnly:
		if number(v) < number(cur) {
			return fmt.Sprintf("%s = %s would lower %s %s; it is raise-only (a project may raise it, never lower it), so %s stands; set it to at least %s or delete it here",
				k.Name, FormatValue(v), whose, FormatValue(cur), FormatValue(cur), FormatValue(cur))
		}
		use()
	case LowerOnly:
		if number(v) > number(cur) {
			return fmt.Sprintf("%s = %s would raise %s %s; it is lower-only (a project may lower it, never raise it), so %s stands; set it to at most %s or delete it here",
				k.Name, FormatValue(v), whose, FormatValue(cur), FormatValue(cur), FormatValue(cur))
		}
		use()
	case EnableOnly:
		if v.(bool) {
			use()
		} else if cur.(bool) {
			return fmt.Sprintf("%s = false would switch off what %s switches on; it is enable-only (a project may switch it on, never off), so true stands; delete it here",
				k.Name, whose)
		}
	case UnionOnly:
		merged := slices.Clone(cur.([]string))
		for _, s := range v.([]string) {
			if !slices.Contains(merged, s) {
				merged = append(merged, s)
			}
		}
		if len(merged) > len(cur.([]string)) {
			setField(r.cfg, k, merged)
			if len(cur.([]string)) == 0 && r.src[i] == srcDefault {
				r.src[i] = srcProject
			} else {
				r.src[i] += "+" + srcProject
			}
		}
	default:
		return fmt.Sprintf("%s has no project policy in the registry; it is ignored here", k.Name)
	}
	return ""
}

// settings lists each row's effective value and where it was set.
func (r *resolution) settings(reg []Key) []Setting {
	out := make([]Setting, len(reg))
	for i := range reg {
		k := &reg[i]
		s := Setting{Key: k.Name, Value: getField(r.cfg, k), Source: r.src[i]}
		if v, ok := s.Value.(string); ok && k.Secret && v != "" {
			s.Value = "(set, hidden)" // secrets never reach a terminal or a log
		}
		f := r.user
		if strings.HasSuffix(s.Source, srcProject) {
			f = r.project
		}
		if s.Source != srcDefault && f != nil {
			s.File, s.Line = f.path, f.line(k.Name)
		}
		out[i] = s
	}
	return out
}

// unknownKeys reports every key or table in m (at dotted prefix) that is not
// in reg, suggesting the closest known name. Known keys are type-checked by
// apply; here a known table written as a value is reported too.
func unknownKeys(reg []Key, f *file, m map[string]any, prefix string) []Problem {
	var ps []Problem
	for name, v := range m {
		full := name
		if prefix != "" {
			full = prefix + "." + name
		}
		_, isMap := v.(map[string]any)
		switch {
		case isKey(reg, full) && !strings.Contains(name, "."):
		case isTable(reg, full) && !strings.Contains(name, "."):
			if isMap {
				ps = append(ps, unknownKeys(reg, f, v.(map[string]any), full)...)
			} else {
				ps = append(ps, f.problem(full, fmt.Sprintf(
					"%s must be a table: write [%s] on a line of its own and its keys below it", full, full)))
			}
		case strings.Contains(name, ".") && (isKey(reg, full) || isTable(reg, full)):
			ps = append(ps, f.problem(full, fmt.Sprintf(
				"unknown key %q: quotes make it one name, not a dotted path; write %s without quotes", name, full)))
		default:
			what, names := "key", keyNames(reg)
			if isMap {
				what, names = "table", tableNames(reg)
			}
			msg := fmt.Sprintf("unknown %s %s", what, full)
			if s := closest(full, names); s != "" {
				msg += "; did you mean " + s + "?" + movedHint(full, s)
			} else {
				msg += "; delete it (`warden config show --defaults` lists every key)"
			}
			ps = append(ps, f.problem(full, msg))
		}
	}
	return ps
}

// movedHint explains a key written in the wrong table, the usual cause
// being a key placed below a [table] header it does not belong to.
func movedHint(name, suggestion string) string {
	if lastPart(name) != lastPart(suggestion) || name == suggestion {
		return ""
	}
	i := strings.LastIndexByte(suggestion, '.')
	if i < 0 {
		return " Keys below a [table] header belong to that table: move it above the first header."
	}
	return " Move it into the [" + suggestion[:i] + "] table."
}

func isKey(reg []Key, name string) bool {
	for i := range reg {
		if reg[i].Name == name {
			return true
		}
	}
	return false
}

// isTable reports whether name is a table some key lives in.
func isTable(reg []Key, name string) bool {
	for i := range reg {
		if n := reg[i].Name; len(n) > len(name) && n[len(name)] == '.' && strings.HasPrefix(n, name) {
			return true
		}
	}
	return false
}

func keyNames(reg []Key) []string {
	out := make([]string, len(reg))
	for i := range reg {
		out[i] = reg[i].Name
	}
	return out
}

func tableNames(reg []Key) []string {
	var out []string
	for i := range reg {
		n := reg[i].Name
		for j := range len(n) {
			if n[j] == '.' && !slices.Contains(out, n[:j]) {
				out = append(out, n[:j])
			}
		}
	}
	return out
}

// lookup finds the value of a dotted name in decoded TOML.
func lookup(m map[string]any, name string) (any, bool) {
	for {
		head, rest, dotted := strings.Cut(name, ".")
		v, ok := m[head]
		if !ok || !dotted {
			return v, ok
		}
		if m, ok = v.(map[string]any); !ok {
			return nil, false
		}
		name = rest
	}
}

// file is one config file that was read and parsed.
type file struct {
	path  string
	info  fs.FileInfo
	text  string
	data  map[string]any // nil when the file could not be parsed
	lines map[string]int // built by line on first use
}

// line returns the line where key (or its nearest ancestor) is written.
func (f *file) line(key string) int {
	if f.lines == nil {
		f.lines = keyLines(f.text)
	}
	return lineOf(f.lines, key)
}

func (f *file) problem(key, msg string) Problem {
	return Problem{File: f.path, Line: f.line(key), Key: key, Message: msg}
}

// readFile reads and parses path. A missing file is nil with no problem. A
// file that cannot be read or parsed comes back without data (it contributes
// nothing) and with the problem.
func readFile(path string) (*file, []Problem) {
	fh, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	if err != nil {
		return nil, unusable(path, 0, "cannot open it: "+pathErr(err))
	}
	defer fh.Close()
	f := &file{path: path}
	if f.info, err = fh.Stat(); err != nil {
		return nil, unusable(path, 0, "cannot read it: "+pathErr(err))
	}
	if f.info.IsDir() {
		return f, unusable(path, 0, "it is a directory, not a file")
	}
	b, err := io.ReadAll(fh)
	if err != nil {
		return f, unusable(path, 0, "cannot read it: "+pathErr(err))
	}
	f.text = string(b)
	var data map[string]any
	if _, err := toml.Decode(f.text, &data); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return f, unusable(path, errorLine(f.text, pe), "TOML syntax error: "+pe.Message)
		}
		return f, unusable(path, 0, "TOML error: "+err.Error())
	}
	f.data = data
	return f, nil
}

func unusable(path string, line int, msg string) []Problem {
	return []Problem{{File: path, Line: line, Message: msg + "; every setting in this file is ignored until it is fixed"}}
}

// errorLine is the line of a parse error. The parser counts a line when it
// reads the newline, so an error at the end of a line (an unclosed [table)
// would be reported on the next one; the byte offset is exact.
func errorLine(text string, pe toml.ParseError) int {
	if s := pe.Position.Start; s >= 0 && s < len(text) {
		return 1 + strings.Count(text[:s], "\n")
	}
	return pe.Position.Line
}

// pathErr drops the path from an *fs.PathError: the problem names the file.
func pathErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
