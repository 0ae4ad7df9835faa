package judge

import (
	"path/filepath"
	"strings"
)

// Intent validation, stage 1 (deterministic, no model): before Claude edits
// a source file, its current assistant message (or the one before: Claude
// Code writes text and tool calls as separate messages) must declare the
// FILE, the CHANGES and the GOAL. On core paths it must also declare the
// test coverage, or quote the user's permission to skip tests — a quote
// that occurs verbatim in one of the last 5 user messages.

// Intent is a parsed declaration.
type Intent struct {
	File, Changes, Goal string
	// Tests is the test declaration; Quote the quoted user permission to
	// skip tests, when that is what was given.
	Tests, Quote string
}

// IntentInput is what stage 1 looks at.
type IntentInput struct {
	// FilePath is the edited file (absolute); ProjectDir its project.
	FilePath, ProjectDir string
	// AssistantTexts are the last assistant messages with text, oldest
	// first; the last two are searched, newest first.
	AssistantTexts []string
	// UserPrompts are the user's messages, oldest first; the last 5 count.
	UserPrompts []string
	CorePaths   []string
}

// IntentResult is stage 1's answer.
type IntentResult struct {
	OK      bool
	Core    bool
	Intent  Intent
	Problem string
}

// quoteWindow is how many recent user messages a permission quote may come from.
const quoteWindow = 5

// minQuote is the shortest quote accepted ("ok" permits nothing specific).
const minQuote = 12

// IsSource reports whether path has one of the source extensions.
func IsSource(path string, exts []string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	if ext == "" {
		return false
	}
	for _, e := range exts {
		if strings.EqualFold(strings.TrimSpace(e), ext) || strings.EqualFold("."+strings.TrimPrefix(strings.TrimSpace(e), "."), ext) {
			return true
		}
	}
	return false
}

// IsCore reports whether path (relative to the project when inside it)
// lies under one of the core path segments (src/, lib/…).
func IsCore(path, projectDir string, core []string) bool {
	rel := filepath.ToSlash(path)
	if projectDir != "" {
		if r, err := filepath.Rel(projectDir, path); err == nil && !strings.HasPrefix(r, "..") {
			rel = filepath.ToSlash(r)
		}
	}
	rel = "/" + strings.TrimPrefix(rel, "/")
	for _, c := range core {
		seg := "/" + strings.Trim(filepath.ToSlash(strings.TrimSpace(c)), "/") + "/"
		if seg != "//" && strings.Contains(rel, seg) {
			return true
		}
	}
	return false
}

// IntentFormat is the declaration format taught in a denial.
func IntentFormat(file string, core bool) string {
	s := "Before the edit, write in your message:\n" +
		"  FILE: " + file + "\n" +
		"  CHANGES: <what you change in it>\n" +
		"  GOAL: <why: what this achieves for the user's request>\n"
	if core {
		s += "  Test coverage: <the test that covers this change, e.g. TestParseEmpty in parser_test.go>\n" +
			"(a core path: instead of a test you may quote the user's permission to skip tests, verbatim from one of their last 5 messages:\n" +
			"  Test coverage: none — user said \"<their exact words>\")\n"
	}
	return s + "Then make the same edit again."
}

// CheckIntent runs stage 1.
func CheckIntent(in IntentInput) IntentResult {
	core := IsCore(in.FilePath, in.ProjectDir, in.CorePaths)
	res := IntentResult{Core: core}
	texts := in.AssistantTexts
	if len(texts) > 2 {
		texts = texts[len(texts)-2:]
	}
	name := displayPath(in.FilePath, in.ProjectDir)
	var found *Intent
	partial := Intent{}
	for i := len(texts) - 1; i >= 0; i-- {
		it := ParseIntent(texts[i])
		merge(&partial, it)
		if it.File != "" && namesFile(it.File, in.FilePath) && it.Changes != "" && it.Goal != "" {
			found = &it
			break
		}
	}
	if found == nil {
		var missing []string
		if partial.File == "" {
			missing = append(missing, "FILE")
		} else if !namesFile(partial.File, in.FilePath) {
			missing = append(missing, "FILE naming "+name+" (it names "+partial.File+")")
		}
		if partial.Changes == "" {
			missing = append(missing, "CHANGES")
		}
		if partial.Goal == "" {
			missing = append(missing, "GOAL")
		}
		res.Intent = partial
		res.Problem = "warden intent validation: no declared intent for this edit of " + name +
			" (missing: " + strings.Join(missing, ", ") + ").\n" + IntentFormat(name, core)
		return res
	}
	res.Intent = *found
	if !core {
		res.OK = true
		return res
	}
	if found.Quote != "" {
		if quoteInPrompts(found.Quote, in.UserPrompts) {
			res.OK = true
			return res
		}
		res.Problem = "warden intent validation: " + name + " is on a core path, and the permission you quoted (\"" +
			clip(found.Quote, 200) + "\") is not in the user's last 5 messages word for word. Quote them exactly, or declare a test.\n" +
			IntentFormat(name, core)
		return res
	}
	if found.Tests == "" || noTests(found.Tests) {
		res.Problem = "warden intent validation: " + name + " is on a core path and your intent declares no test coverage.\n" +
			IntentFormat(name, core)
		return res
	}
	res.OK = true
	return res
}

// ParseIntent reads the labelled lines of a declaration anywhere in text.
func ParseIntent(text string) Intent {
	var it Intent
	for _, line := range strings.Split(text, "\n") {
		l := stripMarkup(line)
		label, val, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		label = strings.ToLower(strings.Trim(strings.TrimSpace(label), "*_` "))
		val = strings.TrimSpace(strings.Trim(strings.TrimSpace(val), "*_"))
		if val == "" {
			continue
		}
		switch label {
		case "file", "files", "intent file", "target file":
			it.File = strings.Trim(val, "`'\"")
		case "changes", "change", "changes planned":
			it.Changes = val
		case "goal", "goals", "why", "purpose":
			it.Goal = val
		case "test coverage", "tests", "test", "testing":
			it.Tests = val
			if q := quoted(val); q != "" {
				it.Quote = q
			}
		case "skip tests", "tests skipped", "user permission", "permission":
			if q := quoted(val); q != "" {
				it.Quote = q
			} else {
				it.Tests = ""
			}
		}
	}
	return it
}

func merge(dst *Intent, src Intent) {
	if dst.File == "" {
		dst.File = src.File
	}
	if dst.Changes == "" {
		dst.Changes = src.Changes
	}
	if dst.Goal == "" {
		dst.Goal = src.Goal
	}
}

// namesFile: the declared file is the edited one (same base name, and a
// declared directory part must match the end of the path).
func namesFile(declared, path string) bool {
	d := filepath.ToSlash(strings.TrimSpace(strings.Trim(declared, "`'\" ")))
	if i := strings.IndexAny(d, " \t("); i > 0 {
		d = d[:i]
	}
	p := filepath.ToSlash(path)
	if d == "" {
		return false
	}
	if filepath.Base(d) != filepath.Base(p) {
		return false
	}
	if !strings.Contains(d, "/") {
		return true
	}
	d = strings.TrimPrefix(d, "./")
	return strings.HasSuffix(p, "/"+strings.TrimPrefix(d, "/")) || p == d
}

func noTests(v string) bool {
	w := strings.ToLower(strings.Trim(strings.TrimSpace(v), ".-—– "))
	for _, no := range []string{"none", "n/a", "na", "no", "skipped", "skip", "not needed", "no tests"} {
		if w == no || strings.HasPrefix(w, no+" ") {
			return true
		}
	}
	return false
}

// quoted returns the text inside the first pair of quotes ("…", “…”, «…»).
func quoted(s string) string {
	for _, q := range [][2]string{{"\"", "\""}, {"“", "”"}, {"«", "»"}, {"„", "“"}} {
		i := strings.Index(s, q[0])
		if i < 0 {
			continue
		}
		rest := s[i+len(q[0]):]
		j := strings.Index(rest, q[1])
		if j <= 0 {
			continue
		}
		return strings.TrimSpace(rest[:j])
	}
	return ""
}

// quoteInPrompts: the quote occurs verbatim (case and spacing aside) in
// one of the last quoteWindow user messages.
func quoteInPrompts(q string, prompts []string) bool {
	nq := normalizeQuote(q)
	if len([]rune(nq)) < minQuote {
		return false
	}
	if len(prompts) > quoteWindow {
		prompts = prompts[len(prompts)-quoteWindow:]
	}
	for _, p := range prompts {
		if strings.Contains(normalizeQuote(p), nq) {
			return true
		}
	}
	return false
}

func normalizeQuote(s string) string {
	s = strings.NewReplacer("’", "'", "‘", "'").Replace(s)
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.Trim(s, ".,;:!? ")
}

func displayPath(path, projectDir string) string {
	if projectDir != "" {
		if r, err := filepath.Rel(projectDir, path); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
	}
	return path
}
