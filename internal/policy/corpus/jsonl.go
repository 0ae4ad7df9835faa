package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// LabelKeys are the labels a JSON-lines set may give each case, in the
// order the report prints their tables: how the command hides what it
// does, and the effect and zone as the set's writer named them (the
// report's EFFECT and ZONE tables are read from the facts instead).
var LabelKeys = []string{"disguise", "effect", "zone"}

// jsonCase is one line of a JSON-lines set, the form blind sets are
// written in: {"cmd": …, "want": "deny"|"ask"|"allow", "disguise": …,
// "effect": …, "zone": …, "persona": …}.
type jsonCase struct {
	Cmd      *string `json:"cmd"` // nil: no such key ("" is a command: the empty one)
	Command  *string `json:"command"`
	Want     string  `json:"want"`
	Disguise string  `json:"disguise"`
	Effect   string  `json:"effect"`
	Zone     string  `json:"zone"`
	Persona  string  `json:"persona"`
}

// wants maps a set's verdict to a corpus expectation: an ask is met by
// an ask or a deny (warden stopping more firmly than the set asked), a
// deny only by a deny, an allow by anything short of ask.
var wants = map[string]string{"deny": "deny", "ask": "flag", "allow": "allow", "flag": "flag", "audit": "audit", "quiet": "quiet"}

// IsJSONL reports whether a corpus file is a JSON-lines set: its name
// ends in .jsonl or its first non-blank byte opens an object.
func IsJSONL(name string, b []byte) bool {
	return path.Ext(name) == ".jsonl" || bytes.HasPrefix(bytes.TrimLeft(b, " \t\r\n"), []byte("{"))
}

// ParseJSONL reads a JSON-lines set: one case a line, classed by its
// persona (else by the file's name), with its labels kept for the report.
func ParseJSONL(name string, b []byte) ([]Case, error) {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	var out []Case
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		var j jsonCase
		if err := json.Unmarshal([]byte(line), &j); err != nil {
			return nil, fmt.Errorf("%s:%d: a line is one JSON object {\"cmd\": …, \"want\": \"deny|ask|allow\"}: %v", name, i+1, err)
		}
		cmd := j.Cmd
		if cmd == nil {
			cmd = j.Command
		}
		exp, ok := wants[j.Want]
		if cmd == nil || !ok {
			return nil, fmt.Errorf("%s:%d: want \"cmd\" (the command line) and \"want\" (deny, ask or allow), got %s", name, i+1, line)
		}
		class := j.Persona
		if class == "" {
			class = strings.TrimSuffix(base, path.Ext(base))
		}
		c := Case{Class: class, Source: fmt.Sprintf("%s:%d", name, i+1), Expect: exp, Command: *cmd}
		for k, v := range map[string]string{"disguise": j.Disguise, "effect": j.Effect, "zone": j.Zone} {
			if v != "" {
				if c.Labels == nil {
					c.Labels = map[string]string{}
				}
				c.Labels[k] = v
			}
		}
		out = append(out, c)
	}
	return out, nil
}
