package lifecycle

import (
	"bufio"
	"bytes"
	"embed"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// templateFS holds the files `warden init` writes under <project>/.claude.
//
//go:embed templates/commands/*.md templates/agents/*.md
var templateFS embed.FS

// ModelAliases are the only values templates may put in `model:`.
var ModelAliases = []string{"opus", "sonnet", "haiku", "inherit"}

// Template is one file `warden init` writes.
type Template struct {
	// Rel is the path under the project, e.g. ".claude/commands/learn.md".
	Rel     string
	Content []byte
}

// Templates returns every template with {{MEMORY_DIR}} filled in for
// project, in path order.
func Templates(project string) ([]Template, error) {
	var out []Template
	err := fs.WalkDir(templateFS, "templates", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := templateFS.ReadFile(p)
		if err != nil {
			return err
		}
		b = bytes.ReplaceAll(b, []byte("{{MEMORY_DIR}}"), []byte(MemoryDir(project)))
		out = append(out, Template{Rel: path.Join(".claude", strings.TrimPrefix(p, "templates/")), Content: b})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out, err
}

// ProjectKey is Claude Code's directory name for a project: the path with
// every character outside [A-Za-z0-9] replaced by "-"
// (claude-code-hooks.md §5.1).
func ProjectKey(dir string) string {
	var b strings.Builder
	for _, r := range dir {
		if (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else if r > 0xFFFF {
			b.WriteString("--") // two UTF-16 code units, as Claude Code counts
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// MemoryDir is ~/.claude/projects/<project key>/memory, spelled with "~" so
// the template reads the same for everyone.
func MemoryDir(project string) string {
	return "~/.claude/projects/" + ProjectKey(project) + "/memory"
}

// FrontmatterModel returns the `model:` value of a template's YAML
// frontmatter ("" when there is none).
func FrontmatterModel(content []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(content))
	if !sc.Scan() || strings.TrimSpace(sc.Text()) != "---" {
		return ""
	}
	for sc.Scan() {
		l := sc.Text()
		if strings.TrimSpace(l) == "---" {
			return ""
		}
		if v, ok := strings.CutPrefix(l, "model:"); ok {
			return strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return ""
}

// InitResult says what Init did with each file.
type InitResult struct {
	Written     []string `json:"written"`
	Overwritten []string `json:"overwritten"`
	Unchanged   []string `json:"unchanged"`
	// Skipped files exist with other content (the user's); --force
	// overwrites them.
	Skipped []string `json:"skipped"`
	// Gitignore is "created", "added" or "present".
	Gitignore string `json:"gitignore"`
}

// Init writes the templates into project and makes sure .warden/ is
// git-ignored. A file that exists with different content is the user's:
// it is kept unless force is set.
func Init(project string, force bool) (InitResult, error) {
	var res InitResult
	ts, err := Templates(project)
	if err != nil {
		return res, err
	}
	for _, t := range ts {
		p := filepath.Join(project, filepath.FromSlash(t.Rel))
		old, err := os.ReadFile(p)
		switch {
		case err == nil && bytes.Equal(old, t.Content):
			res.Unchanged = append(res.Unchanged, t.Rel)
			continue
		case err == nil && !force:
			res.Skipped = append(res.Skipped, t.Rel)
			continue
		case err != nil && !errors.Is(err, os.ErrNotExist):
			return res, err
		}
		if err := WriteFileAtomic(p, t.Content, 0o644); err != nil {
			return res, err
		}
		if old != nil {
			res.Overwritten = append(res.Overwritten, t.Rel)
		} else {
			res.Written = append(res.Written, t.Rel)
		}
	}
	res.Gitignore, err = EnsureGitignore(project)
	return res, err
}

// EnsureGitignore adds ".warden/" to <project>/.gitignore unless a line
// already ignores it; it creates the file when missing. It returns
// "created", "added" or "present".
func EnsureGitignore(project string) (string, error) {
	p := filepath.Join(project, ".gitignore")
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return "created", WriteFileAtomic(p, []byte(".warden/\n"), 0o644)
	}
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(b), "\n") {
		switch strings.TrimSpace(l) {
		case ".warden", ".warden/", "/.warden", "/.warden/", ".warden/*", "/.warden/*", ".warden/**", "/.warden/**":
			return "present", nil
		}
	}
	perm := os.FileMode(0o644)
	if fi, err := os.Stat(p); err == nil {
		perm = fi.Mode().Perm()
	}
	out := append([]byte(nil), b...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	out = append(out, "\n# warden's per-project state and handoffs\n.warden/\n"...)
	return "added", WriteFileAtomic(p, out, perm)
}
