package doctor

import (
	"encoding/json"
	"path/filepath"

	"github.com/warden-dev/warden/internal/install"
	"github.com/warden-dev/warden/internal/sibling"
)

// mcpServer checks the project's registration of `warden mcp` (`warden
// init --mcp`): the warden it names exists and has warden-helper beside
// it, which it execs (`warden-helper mcp`). A project without the entry is fine.
func (d *doctor) mcpServer() {
	p := filepath.Join(d.opts.Cwd, ".mcp.json")
	s, err := install.ReadSettings(p)
	if err != nil {
		d.problem("mcp server", err.Error(), "fix the JSON in "+p)
		return
	}
	servers, err := s.ObjectAt(s.Root, "mcpServers", "mcpServers")
	if err != nil {
		d.problem("mcp server", err.Error(), "make mcpServers in "+p+" an object")
		return
	}
	raw, ok := servers.Get(install.MCPServerName)
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
	if h := filepath.Join(filepath.Dir(bin), sibling.Helper); !sibling.IsExecutable(h) {
		d.problem("mcp server", sibling.Helper+" is missing next to "+bin+" (`warden mcp` runs it)",
			"run `make install` (builds "+sibling.Helper+" and copies it next to warden)")
		return
	}
	d.ok("mcp server", "registered in "+p+": "+entry.Command+" mcp ("+sibling.Helper+" beside it)")
}
