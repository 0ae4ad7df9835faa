package task

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"strings"
	"time"
)

// A person who approves a task agent's call "always for this task"
// (warden task approve ID --always, the dashboard's Always) lets the same
// kind of call through for that task's agent without asking again. Like
// HoldSetting, the hook and the daemon meet in two store settings keyed
// by the task id, so the agent's PreToolUse pays one keyed read, and
// only when the policy asked:
//
//   - AskedSetting(id): the call the policy last asked about for the
//     task (its tool_use_id and CallKey), written by the hook when it
//     asks; approving always copies its key, so the key is made from the
//     call exactly as the agent sent it, never from the redacted text a
//     person sees.
//   - AllowedSetting(id): the task's allowances (JSON list of Allowance);
//     a call whose CallKey is in it is answered allow instead of ask.
//
// Denials are never turned into allow: a rule that denies still denies.

// AskedSetting is the store setting of task id's last asked call.
func AskedSetting(id string) string { return "agent.asked." + id }

// AllowedSetting is the store setting of task id's allowances.
func AllowedSetting(id string) string { return "agent.allow." + id }

// AskedCall is what AskedSetting holds.
type AskedCall struct {
	ToolUseID string `json:"tool_use_id"`
	Tool      string `json:"tool"`
	Key       string `json:"key"`
}

// Allowance is one "always for this task" approval.
type Allowance struct {
	Key  string    `json:"key"`
	Tool string    `json:"tool"`
	Call string    `json:"call,omitempty"` // what the person saw (redacted), for display
	At   time.Time `json:"at"`
}

// CallKey names "the same kind of call" for an allowance, as a SHA-256
// (hex) so no command or secret is stored in it:
//
//   - a shell call (an input with "command": Bash): the tool and the
//     exact command, spaces at its ends trimmed — another command, even
//     one flag apart, asks again;
//   - a file call (file_path, notebook_path or path: Edit, Write, Read,
//     NotebookEdit, Grep…): the tool and the cleaned path — any edit of
//     that file by that tool, since approving an edit approves the file;
//   - anything else: the tool and its whole input, keys sorted.
func CallKey(tool string, input json.RawMessage) string {
	var m map[string]any
	_ = json.Unmarshal(input, &m)
	subject := ""
	if c, ok := m["command"].(string); ok && strings.TrimSpace(c) != "" {
		subject = "command\x00" + strings.TrimSpace(c)
	} else {
		for _, k := range []string{"file_path", "notebook_path", "path"} {
			if p, ok := m[k].(string); ok && p != "" {
				subject = "path\x00" + filepath.Clean(p)
				break
			}
		}
	}
	if subject == "" {
		b, _ := json.Marshal(m) // map keys come out sorted
		subject = "input\x00" + string(b)
	}
	sum := sha256.Sum256([]byte(tool + "\x00" + subject))
	return hex.EncodeToString(sum[:])
}

// ParseAllowances reads AllowedSetting's value; a broken value is none.
func ParseAllowances(v string) []Allowance {
	var as []Allowance
	if v == "" || json.Unmarshal([]byte(v), &as) != nil {
		return nil
	}
	return as
}

// FindAllowance returns the allowance for key in AllowedSetting's value.
func FindAllowance(v, key string) *Allowance {
	if key == "" || !strings.Contains(v, key) { // most values hold no such key: skip the decode
		return nil
	}
	for _, a := range ParseAllowances(v) {
		if a.Key == key {
			return &a
		}
	}
	return nil
}
