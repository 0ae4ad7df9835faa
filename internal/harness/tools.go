package harness

import "encoding/json"

// A tool as Claude Code names it, and how its arguments' keys map.
type toolMap struct {
	name string
	keys map[string]string // the CLI's argument key → Claude Code's
}

// shellTools are every CLI's shell tool: Codex reports its exec_command
// as Bash already, Gemini calls it run_shell_command, Copilot bash (and
// Bash in its Claude-style dialect).
var shellTool = toolMap{name: "Bash", keys: map[string]string{"cmd": "command"}}

// tools maps the CLIs' tool names to Claude Code's, so the policy judges a
// Gemini write_file as it judges a Write. Names not listed (MCP tools,
// Codex's apply_patch, Gemini's web_search) reach the policy as they are.
var tools = map[string]toolMap{
	"Bash": shellTool, "bash": shellTool, "run_shell_command": shellTool, "run-shell-command": shellTool,
	"exec": shellTool, "exec_command": shellTool, "shell": shellTool, "launch-process": shellTool,
	// Gemini CLI.
	"write_file":          {name: "Write", keys: map[string]string{"absolute_path": "file_path", "path": "file_path"}},
	"replace":             {name: "Edit", keys: map[string]string{"absolute_path": "file_path", "path": "file_path"}},
	"read_file":           {name: "Read", keys: map[string]string{"absolute_path": "file_path", "path": "file_path"}},
	"read_many_files":     {name: "Read"},
	"grep_search":         {name: "Grep"},
	"search_file_content": {name: "Grep"},
	"list_directory":      {name: "LS"},
	"web_fetch":           {name: "WebFetch"},
	"glob":                {name: "Glob"},
	// Copilot CLI (camelCase dialect).
	"view":        {name: "Read", keys: map[string]string{"path": "file_path"}},
	"create":      {name: "Write", keys: map[string]string{"path": "file_path", "file_text": "content"}},
	"edit":        {name: "Edit", keys: map[string]string{"path": "file_path", "old_str": "old_string", "new_str": "new_string"}},
	"str_replace": {name: "Edit", keys: map[string]string{"path": "file_path", "old_str": "old_string", "new_str": "new_string"}},
	"grep":        {name: "Grep"},
	"rg":          {name: "Grep"},
	"task":        {name: "Agent"},
}

// claudeTool is the tool's Claude Code name and its arguments under
// Claude Code's keys (nil: unchanged). Keys already in Claude Code's
// spelling are kept; the CLI's own keys stay too, for the record.
func claudeTool(name string, input json.RawMessage) (string, json.RawMessage) {
	t, ok := tools[name]
	if !ok {
		return name, nil
	}
	if len(t.keys) == 0 || len(input) == 0 {
		return t.name, nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(input, &m) != nil {
		return t.name, nil
	}
	changed := false
	for from, to := range t.keys {
		if v, ok := m[from]; ok {
			if _, has := m[to]; !has {
				m[to] = v
				changed = true
			}
		}
	}
	if !changed {
		return t.name, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return t.name, nil
	}
	return t.name, b
}
