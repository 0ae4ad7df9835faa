package callfacts

import (
	"encoding/json"
	"strings"
)

// A run-command document's parameters (aws ssm start-session
// --document-name AWS-StartNonInteractiveCommand --parameters
// '{"command":["df -h"]}', aws ssm send-command --document-name
// AWS-RunShellScript --parameters 'commands=["systemctl status app"]')
// hold the shell lines the instance runs: those lines are the payload,
// judged as any remote shell's, not the JSON around them (whose braces
// read as a program glob). Parameters this cannot read (file://p.json,
// a shorthand it does not know) stay the payload as written, so they are
// still judged unknown.

// value is the command an opt= value holds: itself, or for a params
// rule the command lines its parameters list ("" when they list none:
// a port forwarding session's portNumber runs nothing).
func (r *rshellRule) value(v string) string {
	if !r.params {
		return v
	}
	if lines, ok := docCommands(v); ok {
		return strings.Join(lines, "\n")
	}
	return v
}

// docCommands reads the command or commands parameter of a document's
// parameters in JSON ({"commands":["a","b"]}) or the CLI's shorthand
// (commands=["a","b"], command=uptime); ok false when v is neither.
func docCommands(v string) (lines []string, ok bool) {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "{") {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(v), &m) != nil {
			return nil, false
		}
		for k, raw := range m {
			if k != "command" && k != "commands" {
				continue
			}
			l, ok := stringList(raw)
			if !ok {
				return nil, false
			}
			lines = append(lines, l...)
		}
		return lines, true
	}
	k, rest, found := strings.Cut(v, "=")
	if !found || k != "command" && k != "commands" {
		return nil, false
	}
	if strings.HasPrefix(rest, "[") {
		var l []string
		dec := json.NewDecoder(strings.NewReader(rest))
		if dec.Decode(&l) != nil || strings.TrimSpace(rest[dec.InputOffset():]) != "" {
			return nil, false // another parameter after the list: not read here
		}
		return l, true
	}
	if strings.ContainsAny(rest, ",=[]{}") {
		return nil, false // a list in shorthand (commands=a,b) or another parameter
	}
	return []string{strings.Trim(rest, `"'`)}, true
}

// stringList is a JSON string or list of strings.
func stringList(raw json.RawMessage) ([]string, bool) {
	var l []string
	if json.Unmarshal(raw, &l) == nil {
		return l, true
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, true
	}
	return nil, false
}
