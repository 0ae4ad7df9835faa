package install

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// mcpServer checks the project's registration of `warden mcp` (`warden
// init --mcp`): the warden it names exists and has warden-mcp beside it,
// which it execs. A project without the entry is fine.
func (d *doctor) mcpServer() {
	p := filepath.Join(d.opts.Cwd, ".mcp.json")
	s, err := ReadSettings(p)
	if err != nil {
		d.problem("mcp server", err.Error(), "fix the JSON in "+p)
		return
	}
	servers, err := s.objectAt(s.Root, "mcpServers", "mcpServers")
	if err != nil {
		d.problem("mcp server", err.Error(), "make mcpServers in "+p+" an object")
		return
	}
	raw, ok := servers.Get(MCPServerName)
	if !ok {
		d.ok("mcp server", "not registered in this project (`warden init --mcp` adds it)")
		return
	}
	var entry struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	if json.Unmarshal(raw, &entry) != nil || entry.Command == "" {
		d.problem("mcp server", p+": mcpServers.warden has no command", "run `warden init --mcp` to write it again")
		return
	}
	bin := entry.Command
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		bin = real
	}
	if !isExecutable(bin) {
		d.problem("mcp server", p+": mcpServers.warden runs "+entry.Command+", which does not exist",
			"run `warden init --mcp` with the installed warden to point it there")
		return
	}
	mcp := filepath.Join(filepath.Dir(bin), "warden-mcp")
	if _, err := os.Stat(mcp); err != nil || !isExecutable(mcp) {
		d.problem("mcp server", "warden-mcp is missing next to "+bin+" (`warden mcp` runs it)",
			"run `make install` (builds warden-mcp and copies it next to warden)")
		return
	}
	d.ok("mcp server", "registered in "+p+": "+entry.Command+" mcp (warden-mcp beside it)")
}
