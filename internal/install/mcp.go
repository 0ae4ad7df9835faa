package install

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/warden-dev/warden/internal/atomicfile"
)

// `warden init --mcp`: register `warden mcp` in the project's .mcp.json
// and add the slash commands that drive its tools. .mcp.json is merged as
// install merges settings.json: other servers and keys are kept byte for
// byte, the old file is backed up, the new one written atomically, and a
// file that is not a JSON object is refused with its line and column.

//go:embed mcpcommands/*.md
var mcpCommandFS embed.FS

// MCPServerName is the server's name in .mcp.json; Claude Code names its
// tools mcp__warden__<tool>.
const MCPServerName = "warden"

// MCPInitResult says what InitMCP did.
type MCPInitResult struct {
	// MCPJSON is the file; Server is "added", "updated" or "unchanged".
	MCPJSON string `json:"mcp_json"`
	Server  string `json:"server"`
	Backup  string `json:"backup,omitempty"`
	// Commands written, overwritten (force), unchanged, or kept because
	// they are the user's.
	Written     []string `json:"written"`
	Overwritten []string `json:"overwritten"`
	Unchanged   []string `json:"unchanged"`
	Skipped     []string `json:"skipped"`
}

// MCPServerEntry is the .mcp.json entry for bin: a stdio server running
// `bin mcp`, with a non-default WARDEN_HOME pinned (Claude Code starts
// servers without the installing shell's environment).
func MCPServerEntry(bin string) map[string]any {
	e := map[string]any{"type": "stdio", "command": bin, "args": []string{"mcp"}}
	if pre := HomePrefix(); pre != "" {
		e["env"] = map[string]string{"WARDEN_HOME": os.Getenv("WARDEN_HOME")}
	}
	return e
}

// InitMCP registers the server in <project>/.mcp.json and writes the
// slash commands into <project>/.claude/commands. bin is the warden the
// server entry runs ("" : the running warden).
func InitMCP(project, bin string, force bool, now time.Time) (MCPInitResult, error) {
	res := MCPInitResult{MCPJSON: filepath.Join(project, ".mcp.json")}
	if bin == "" {
		var err error
		if bin, err = sourceBinary(); err != nil {
			return res, err
		}
	}
	s, err := ReadSettings(res.MCPJSON)
	if err != nil {
		return res, err
	}
	servers, err := s.ObjectAt(s.Root, "mcpServers", "mcpServers")
	if err != nil {
		return res, err
	}
	want, _ := json.Marshal(MCPServerEntry(bin))
	res.Server = "added"
	if old, ok := servers.Get(MCPServerName); ok {
		res.Server = "updated"
		if jsonEqual(old, want) {
			res.Server = "unchanged"
		}
	}
	if res.Server != "unchanged" {
		entry, _ := parseObject(want)
		servers.Set(MCPServerName, entry)
		s.Root.Set("mcpServers", servers)
		if err := checkWritable(s); err != nil {
			return res, err
		}
		if s.Exists {
			if res.Backup, err = backup(s, now); err != nil {
				return res, err
			}
		}
		if err := writeSettings(s, s.Encode()); err != nil {
			return res, err
		}
	}
	return res, writeMCPCommands(project, force, &res)
}

func writeMCPCommands(project string, force bool, res *MCPInitResult) error {
	names, err := fs.Glob(mcpCommandFS, "mcpcommands/*.md")
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, n := range names {
		content, _ := mcpCommandFS.ReadFile(n)
		rel := filepath.ToSlash(filepath.Join(".claude", "commands", filepath.Base(n)))
		p := filepath.Join(project, filepath.FromSlash(rel))
		old, err := os.ReadFile(p)
		switch {
		case err == nil && bytes.Equal(old, content):
			res.Unchanged = append(res.Unchanged, rel)
			continue
		case err == nil && !force:
			res.Skipped = append(res.Skipped, rel)
			continue
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return NewFSError("read", p, err)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return NewFSError("create directory for", p, err)
		}
		if err := atomicfile.Write(p, content, 0o644); err != nil {
			return NewFSError("write", p, err)
		}
		if old != nil {
			res.Overwritten = append(res.Overwritten, rel)
		} else {
			res.Written = append(res.Written, rel)
		}
	}
	return nil
}

// jsonEqual compares two JSON values by meaning (key order, spacing).
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}
