package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// fieldAliases are the payload keys other CLIs spell differently from
// Claude Code, by the Claude Code key. The first one present wins.
var fieldAliases = map[string][]string{
	"session_id":       {"sessionId", "conversation_id"},
	"transcript_path":  {"transcriptPath"},
	"hook_event_name":  {"hookEventName", "hookName"},
	"tool_name":        {"toolName"},
	"tool_input":       {"toolInput", "toolArgs", "tool_args"},
	"tool_response":    {"toolResult", "toolResponse", "tool_result"},
	"tool_use_id":      {"toolUseId", "toolCallId"},
	"agent_id":         {"agentId"},
	"stop_hook_active": {"stopHookActive"},
	// Gemini's AfterAgent is warden's Stop: its answer is the last message.
	"last_assistant_message": {"prompt_response", "lastAssistantMessage"},
}

// In turns a CLI's hook payload into Claude Code's: the Claude Code event
// name in hook_event_name (from argEv, the event named on the command
// line, else the payload's own), Claude Code's field names, and the tool
// as Claude Code would name it (see tools.go). native is the CLI's name
// for the event, which its answer must repeat. Claude Code's payload is
// returned as it is.
func In(h Name, raw []byte, argEv string) (out []byte, native string, err error) {
	if h == Claude {
		return raw, argEv, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, argEv, fmt.Errorf("%s hook input is not a JSON object: %w", h.Title(), err)
	}
	for key, aliases := range fieldAliases {
		if _, ok := m[key]; ok {
			continue
		}
		for _, a := range aliases {
			if v, ok := m[a]; ok {
				m[key] = v
				break
			}
		}
	}
	native = argEv
	if native == "" {
		native = stringField(m, "hook_event_name")
	}
	ev := EventOf(h, native)
	if ev != "" {
		m["hook_event_name"] = mustJSON(string(ev))
	}
	if v, ok := m["tool_input"]; ok {
		m["tool_input"] = objectArgs(v)
	}
	if tool := stringField(m, "tool_name"); tool != "" {
		name, input := claudeTool(tool, m["tool_input"])
		m["tool_name"] = mustJSON(name)
		if input != nil {
			m["tool_input"] = input
		}
	}
	out, err = json.Marshal(m)
	return out, native, err
}

// objectArgs is tool arguments as an object: Copilot sent toolArgs as a
// JSON string before 1.0 and as an object since; either is accepted. A
// string that is not an object is kept as it came.
func objectArgs(v json.RawMessage) json.RawMessage {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || v[0] != '"' {
		return v
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return v
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(s), &obj) != nil {
		return v
	}
	return json.RawMessage(s)
}

func stringField(m map[string]json.RawMessage, key string) string {
	var s string
	if json.Unmarshal(m[key], &s) != nil {
		return ""
	}
	return s
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
