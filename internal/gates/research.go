package gates

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Research categories and the tools that count for each.
const (
	Docs   = "docs"
	Web    = "web"
	GitHub = "github"
	Local  = "local"
)

// Category is the research category a tool belongs to ("" for none).
// docsServers are MCP server names whose tools count as documentation
// research; any server with "docs" in its name counts too.
func Category(tool string, docsServers []string) string {
	switch tool {
	case "Read", "Grep", "Glob", "LS":
		return Local
	case "WebSearch", "WebFetch":
		return Web
	}
	server, ok := mcpServer(tool)
	if !ok {
		return ""
	}
	if server == "github" {
		return GitHub
	}
	if slices.Contains(docsServers, server) || strings.Contains(strings.ToLower(server), "docs") {
		return Docs
	}
	return ""
}

// mcpServer extracts <server> from mcp__<server>__<tool>.
func mcpServer(tool string) (string, bool) {
	rest, ok := strings.CutPrefix(tool, "mcp__")
	if !ok {
		return "", false
	}
	server, _, ok := strings.Cut(rest, "__")
	return server, ok
}

// Availability says which categories can be done in this Claude Code set-up:
// local and web always; docs and github only when such an MCP server is
// configured (user ~/.claude.json, its per-project entry, or the project's
// .mcp.json). Requiring research nobody can do would just block all work.
type Availability struct {
	Servers []string
}

// Available reports whether category c can be researched.
func (a Availability) Available(c string, docsServers []string) bool {
	switch c {
	case Local, Web:
		return true
	case GitHub:
		return slices.Contains(a.Servers, "github")
	case Docs:
		for _, s := range a.Servers {
			if slices.Contains(docsServers, s) || strings.Contains(strings.ToLower(s), "docs") {
				return true
			}
		}
	}
	return false
}

// FindServers lists the MCP servers configured for a project: in
// <claudeHome>/.claude.json (global and the project's entry), in
// ~/.claude.json, and in <project>/.mcp.json. Unreadable files count as
// none.
func FindServers(projectDir, claudeDir, home string) []string {
	var out []string
	add := func(m map[string]json.RawMessage) {
		for name := range m {
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	type mcpFile struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
		Projects   map[string]struct {
			MCPServers map[string]json.RawMessage `json:"mcpServers"`
		} `json:"projects"`
	}
	for _, path := range []string{filepath.Join(claudeDir, ".claude.json"), filepath.Join(home, ".claude.json"),
		filepath.Join(projectDir, ".mcp.json")} {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		var f mcpFile
		if json.Unmarshal(b, &f) != nil {
			continue
		}
		add(f.MCPServers)
		if p, ok := f.Projects[projectDir]; ok {
			add(p.MCPServers)
		}
	}
	slices.Sort(out)
	return out
}

// MissingResearch lists the required categories not done yet, among those
// available.
func MissingResearch(required []string, done map[string]bool, avail Availability, docsServers []string) []string {
	var out []string
	for _, c := range required {
		if !done[c] && avail.Available(c, docsServers) {
			out = append(out, c)
		}
	}
	return out
}

// howTo tells Claude how to satisfy a category.
var howTo = map[string]string{
	Docs:   "look the API up in the documentation MCP server (e.g. context7)",
	Web:    "search or fetch the relevant page (WebSearch, WebFetch)",
	GitHub: "check the repository, issues or PRs with the GitHub MCP tools",
	Local:  "read the code you are about to change (Read, Grep, Glob)",
}

// ResearchDenyReason explains the research gate's denial.
func ResearchDenyReason(missing []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "research first: this task needs research before edits, and %s still missing:", plural(len(missing), "category is", "categories are"))
	for _, c := range missing {
		fmt.Fprintf(&b, "\n  - %s: %s", c, howTo[c])
	}
	b.WriteString("\nOnly a successful tool call counts; saying you researched does not. Then retry the edit.")
	return b.String()
}

// ResearchProgress is the `warden research` text.
func ResearchProgress(g *SessionState, required []string, avail Availability, docsServers []string, enabled bool) string {
	var b strings.Builder
	state := "off (set gates.research = true to turn it on)"
	if enabled {
		state = "on"
	}
	fmt.Fprintf(&b, "research gate: %s; last prompt: %s\n", state, orNone(string(g.Prompt)))
	for _, c := range required {
		mark := "·"
		switch {
		case !avail.Available(c, docsServers):
			mark = "- (not set up here, not required)"
		case g.Research[c]:
			mark = "✓ done"
		default:
			mark = "✗ missing"
		}
		fmt.Fprintf(&b, "  %-7s %s\n", c, mark)
	}
	return strings.TrimRight(b.String(), "\n")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func orNone(s string) string {
	if s == "" {
		return "none yet"
	}
	return s
}
