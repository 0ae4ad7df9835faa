package task

import (
	"encoding/json"
	"testing"
)

// The key of "the same kind of call": the exact command for a shell
// call, the tool and file for a file call, the whole input otherwise.
func TestCallKey(t *testing.T) {
	key := func(tool string, in map[string]any) string {
		b, _ := json.Marshal(in)
		return CallKey(tool, b)
	}
	cat := key("Bash", map[string]any{"command": "cat .env", "description": "read it"})
	same := []string{
		key("Bash", map[string]any{"command": "  cat .env\n", "description": "again"}),
	}
	for _, k := range same {
		if k != cat {
			t.Errorf("the same command has another key")
		}
	}
	for name, k := range map[string]string{
		"another command":   key("Bash", map[string]any{"command": "cat .env.local"}),
		"one flag more":     key("Bash", map[string]any{"command": "cat -n .env"}),
		"another tool":      key("Shell", map[string]any{"command": "cat .env"}),
		"a file, not a cmd": key("Read", map[string]any{"file_path": "cat .env"}),
	} {
		if k == cat {
			t.Errorf("%s has the same key", name)
		}
	}
	e1 := key("Edit", map[string]any{"file_path": "/w/app/.env", "old_string": "a", "new_string": "b"})
	e2 := key("Edit", map[string]any{"file_path": "/w/app/./.env", "old_string": "c", "new_string": "d"})
	if e1 != e2 {
		t.Error("two edits of one file have different keys")
	}
	if e1 == key("Write", map[string]any{"file_path": "/w/app/.env", "content": "x"}) || e1 == key("Edit", map[string]any{"file_path": "/w/app/.env2"}) {
		t.Error("another tool or file has the edit's key")
	}
	w1 := key("WebFetch", map[string]any{"url": "https://a.example", "prompt": "p"})
	if w1 != key("WebFetch", map[string]any{"prompt": "p", "url": "https://a.example"}) || w1 == key("WebFetch", map[string]any{"url": "https://b.example", "prompt": "p"}) {
		t.Error("other tools: the key is not the whole input")
	}
	v, _ := json.Marshal([]Allowance{{Key: cat, Tool: "Bash", Call: "cat .env"}})
	if a := FindAllowance(string(v), cat); a == nil || a.Call != "cat .env" {
		t.Errorf("FindAllowance: %+v", a)
	}
	if FindAllowance(string(v), e1) != nil || FindAllowance("not json "+cat, cat) != nil || FindAllowance("", "") != nil {
		t.Error("FindAllowance found what is not there")
	}
}
