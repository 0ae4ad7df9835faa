package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/policy"
)

// The reference pages under docs/reference are generated from the code, so
// they cannot drift from it: this test fails when a page differs from what
// the code says, and `make docs` (WARDEN_TEST_UPDATE_DOCS=1) rewrites them.

const repoRoot = "../.."

// commandsReference renders every command of the tree: usage, what it
// does, its flags, its subcommands.
func commandsReference(root *cobra.Command) string {
	var b strings.Builder
	b.WriteString("# Command reference\n\n")
	b.WriteString("Generated from the command tree by `make docs`; do not edit by hand.\n")
	b.WriteString("Everyday use is in [../commands.md](../commands.md).\n\n")
	var walk func(c *cobra.Command)
	var all []*cobra.Command
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			return
		}
		all = append(all, c)
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	b.WriteString("| command | what it does |\n| --- | --- |\n")
	for _, c := range all[1:] {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s |\n", c.CommandPath(), anchor(c.CommandPath()), cell(c.Short))
	}
	for _, c := range all[1:] {
		fmt.Fprintf(&b, "\n## %s\n\n", c.CommandPath())
		long := strings.TrimSpace(c.Long)
		if long == "" {
			long = strings.TrimSpace(c.Short)
		}
		b.WriteString(long + "\n")
		if c.Runnable() {
			fmt.Fprintf(&b, "\n```\n%s\n```\n", strings.TrimSpace(c.UseLine()))
		}
		if flags := flagLines(c.NonInheritedFlags()); flags != "" {
			b.WriteString("\n| flag | meaning |\n| --- | --- |\n" + flags)
		}
		var subs []string
		for _, s := range c.Commands() {
			if !s.Hidden && s.Name() != "help" {
				subs = append(subs, fmt.Sprintf("[`%s`](#%s)", s.Name(), anchor(s.CommandPath())))
			}
		}
		if len(subs) > 0 {
			b.WriteString("\nSubcommands: " + strings.Join(subs, ", ") + ".\n")
		}
	}
	return b.String()
}

func flagLines(fs *pflag.FlagSet) string {
	var b strings.Builder
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Name == "help" {
			return
		}
		name := "--" + f.Name
		if f.Shorthand != "" {
			name = "-" + f.Shorthand + ", " + name
		}
		if t := f.Value.Type(); t != "bool" {
			name += " " + t
		}
		usage := f.Usage
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "[]" && f.DefValue != "0" {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(&b, "| `%s` | %s |\n", name, cell(usage))
	})
	return b.String()
}

// configReference renders every configuration key: default, range or
// allowed values, what a project file may do with it, and what it is for.
func configReference() string {
	var b strings.Builder
	b.WriteString("# Configuration reference\n\n")
	b.WriteString("Generated from the key registry by `make docs`; do not edit by hand.\n")
	b.WriteString("Keys live in `~/.warden/config.toml`; a project's `.warden/config.toml`\n")
	b.WriteString("may set a key only as its \"project\" column says. The guide is\n")
	b.WriteString("[../configuration.md](../configuration.md).\n\n")
	keys := config.Keys()
	sort.SliceStable(keys, func(i, j int) bool { return keys[i].Name < keys[j].Name })
	b.WriteString("| key | type | default | values | project | what it does |\n| --- | --- | --- | --- | --- | --- |\n")
	for i := range keys {
		k := &keys[i]
		values := ""
		switch {
		case len(k.Allowed) > 0:
			values = strings.Join(k.Allowed, ", ")
		case k.Min != 0 || k.Max != 0:
			values = fmt.Sprintf("%s – %s", config.FormatValue(k.Min), config.FormatValue(k.Max))
		}
		if k.Unit != "" {
			values = strings.TrimSpace(values + " " + k.Unit)
		}
		def := k.DefaultString()
		if k.Secret {
			def = "(unset)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | `%s` | %s | %s | %s |\n", k.Name, k.Kind, def, cell(values), k.Policy, cell(k.Doc))
	}
	return b.String()
}

// defaultZoneTable is `warden policy zones` with the default config.
func defaultZoneTable(t *testing.T) string {
	t.Helper()
	o := policy.OptionsFrom(config.Defaults(), "/nonexistent-warden-home")
	var b bytes.Buffer
	if err := printZoneTable(&b, policy.ZoneTableFor(&o), false); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func anchor(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), " ", "-")
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), "\n", " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

func TestReferenceDocsAreCurrent(t *testing.T) {
	pages := map[string]string{
		"docs/reference/commands.md": commandsReference(NewRoot()),
		"docs/reference/config.md":   configReference(),
		"docs/reference/api.md":      apiReference(t),
	}
	update := os.Getenv("WARDEN_TEST_UPDATE_DOCS") == "1"
	for rel, want := range pages {
		file := filepath.Join(repoRoot, rel)
		if update {
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(file)
		if err != nil || string(got) != want {
			t.Errorf("%s is not what the code says (%v); run `make docs` and commit it", rel, err)
		}
	}
}

// TestZoneTableInDocsIsCurrent: the README's and the guards guide's copy of
// the verdict table are what `warden policy zones` prints by default.
func TestZoneTableInDocsIsCurrent(t *testing.T) {
	want := defaultZoneTable(t)
	for _, rel := range []string{"README.md", "docs/guards.md"} {
		data, err := os.ReadFile(filepath.Join(repoRoot, rel))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "```\n"+want+"```\n") {
			t.Errorf("%s: its zone table is not `warden policy zones`'s; paste this:\n%s", rel, want)
		}
	}
}

// TestReadmeStaysAFrontDoor: the README is the front door, not the manual.
func TestReadmeStaysAFrontDoor(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte("\n")); n > 300 {
		t.Errorf("README.md has %d lines; keep it ≤ 300 and move detail into docs/", n)
	}
}

// TestDocsLinksResolve: every relative link of the README and the guides
// names a file that exists, and a #fragment names one of its headings.
func TestDocsLinksResolve(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	more, _ := filepath.Glob(filepath.Join(repoRoot, "docs", "*", "*.md"))
	files = append(append(files, more...), filepath.Join(repoRoot, "README.md"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			// The docs stand alone: nothing outside the repository.
			if strings.Contains(line, "../shared") || strings.Contains(line, "SPEC") {
				t.Errorf("%s:%d cites a file outside the repository: %s", file, i+1, line)
			}
			for _, link := range linkTargets(line) {
				if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
					continue
				}
				target, frag, _ := strings.Cut(link, "#")
				path := file
				if target != "" {
					path = filepath.Join(filepath.Dir(file), target)
				}
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s links to %s, which does not exist", file, link)
					continue
				}
				if frag != "" && strings.HasSuffix(path, ".md") && !headingAnchors(t, path)[frag] {
					t.Errorf("%s links to %s, but %s has no heading with that anchor", file, link, path)
				}
			}
		}
	}
}

// headingAnchors are the anchors GitHub gives the Markdown headings of
// file (outside code blocks), a repeated one numbered -1, -2….
func headingAnchors(t *testing.T, file string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	seen := map[string]int{}
	fence := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fence = !fence
			continue
		}
		if fence || !strings.HasPrefix(line, "#") {
			continue
		}
		a := githubAnchor(strings.TrimLeft(line, "#"))
		if n := seen[a]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// linkTargets returns the targets of Markdown links ](…) in a line.
func linkTargets(line string) []string {
	var out []string
	for {
		i := strings.Index(line, "](")
		if i < 0 {
			return out
		}
		line = line[i+2:]
		j := strings.IndexByte(line, ')')
		if j < 0 {
			return out
		}
		out = append(out, line[:j])
		line = line[j+1:]
	}
}
