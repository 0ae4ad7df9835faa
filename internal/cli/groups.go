package cli

import (
	"fmt"

	"github.com/spf13/cobra"
)

// The top-level commands are grouped in `warden --help` by what they are
// for, as larger CLIs group theirs: a flat list of thirty-odd names hides
// the few a newcomer needs.
var groups = []*cobra.Group{
	{ID: "session", Title: "Sessions (run inside Claude Code, or from a shell):"},
	{ID: "guards", Title: "Guards and the record:"},
	{ID: "usage", Title: "Usage and pacing:"},
	{ID: "orchestrator", Title: "Orchestrator (the daemon, its tasks and agents):"},
	{ID: "setup", Title: "Setup and maintenance:"},
}

// groupOf places every top-level command; a command missing here fails
// TestEveryCommandHasAGroup, so a new one is placed when it is added.
var groupOf = map[string]string{
	"status": "session", "on": "session", "off": "session", "safemode": "session",
	"breaker": "session", "research": "session", "pace-maker": "session",
	"handoff": "session", "loop": "session", "tempo": "session",

	"policy": "guards", "replay": "guards", "judge": "guards", "audit": "guards", "log": "guards", "stats": "guards",

	"usage": "usage", "pace": "usage", "statusline": "usage",

	"serve": "orchestrator", "service": "orchestrator", "task": "orchestrator",
	"agent": "orchestrator", "token": "orchestrator", "logs": "orchestrator",

	"install": "setup", "uninstall": "setup", "doctor": "setup", "init": "setup",
	"config": "setup", "import": "setup", "mcp": "setup", "store": "setup",
	"ship": "setup", "cleanup": "setup", "version": "setup", "hook": "setup",
	"keeper": "setup",
}

// groupCommands adds the groups to root and puts each command in its own;
// help and completion go with setup.
func groupCommands(root *cobra.Command) {
	root.AddGroup(groups...)
	for _, c := range root.Commands() {
		if id, ok := groupOf[c.Name()]; ok {
			c.GroupID = id
		}
	}
	root.SetHelpCommandGroupID("setup")
	root.SetCompletionCommandGroupID("setup")
}

// ungrouped lists the top-level commands groupOf does not place.
func ungrouped(root *cobra.Command) []string {
	var out []string
	for _, c := range root.Commands() {
		if c.GroupID == "" && c.Name() != "help" && c.Name() != "completion" {
			out = append(out, fmt.Sprintf("%s (%s)", c.Name(), c.Short))
		}
	}
	return out
}
