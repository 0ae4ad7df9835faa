// Package importer moves users of other hook systems to warden: today
// claude-pace-maker (`warden import pace-maker`), whose config and state
// are read from ~/.claude-pace-maker, mapped onto warden's config keys, and
// whose hooks can be removed from Claude Code's settings.
package importer

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// PaceMakerDir is claude-pace-maker's directory (config.json, state.json,
// usage.db), fixed by its installer.
func PaceMakerDir(home string) string { return filepath.Join(home, ".claude-pace-maker") }

// Setting is one warden config value the import produces.
type Setting struct {
	From  string // pace-maker key(s)
	Key   string // warden key, dotted
	Value any    // bool, int, float64 or string
	Note  string // how it was mapped, when not one to one
}

// Unmapped is a pace-maker key or state field warden has no equivalent for.
type Unmapped struct {
	Source string // "config.json" or "state.json"
	Key    string
	Value  string
	Why    string
}

// PaceMaker is what was read and how it maps.
type PaceMaker struct {
	Dir       string
	HasConfig bool
	HasState  bool
	Settings  []Setting
	Unmapped  []Unmapped
	StateNote string
}

// ReadPaceMaker reads dir/config.json and dir/state.json. A missing file
// is fine (pace-maker writes state only once it ran); a malformed one is an
// error naming the file.
func ReadPaceMaker(dir string) (*PaceMaker, error) {
	pm := &PaceMaker{Dir: dir}
	cfg, err := readJSON(filepath.Join(dir, "config.json"))
	if err != nil {
		return nil, err
	}
	state, err := readJSON(filepath.Join(dir, "state.json"))
	if err != nil {
		return nil, err
	}
	if cfg == nil && state == nil {
		return nil, fmt.Errorf("no claude-pace-maker config or state in %s (config.json, state.json); pass --from DIR if it lives elsewhere", dir)
	}
	pm.HasConfig, pm.HasState = cfg != nil, state != nil
	if cfg != nil {
		pm.mapConfig(cfg)
	}
	if state != nil {
		pm.mapState(state)
	}
	return pm, nil
}

func readJSON(path string) (map[string]json.RawMessage, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s is not a JSON object (%v); fix or move it, nothing was imported", path, err)
	}
	return m, nil
}

// direct are pace-maker config keys with a one-to-one warden key; the
// pacing ones are the same algorithm's parameters (reference/pacing.md).
var direct = map[string]string{
	"enabled":                   "pacing.enabled",
	"base_delay":                "pacing.base_delay",
	"max_delay":                 "pacing.max_delay",
	"threshold_percent":         "pacing.threshold_percent",
	"poll_interval":             "pacing.poll_interval",
	"safety_buffer_pct":         "pacing.safety_buffer_pct",
	"preload_hours":             "pacing.preload_hours",
	"weekly_limit_enabled":      "pacing.weekly_limit",
	"five_hour_limit_enabled":   "pacing.five_hour_limit",
	"retention_days":            "retention_days",
	"intent_validation_enabled": "validation.intent",
}

// floatKeys are the warden keys that hold floats.
var floatKeys = map[string]bool{"pacing.threshold_percent": true, "pacing.safety_buffer_pct": true, "pacing.preload_hours": true}

// noEquivalent says why a known pace-maker key does not carry over.
var noEquivalent = map[string]string{
	"api_timeout_seconds":             "warden's usage poll has its own fixed deadline",
	"cleanup_interval_hours":          "warden prunes the store once a day at SessionStart (retention_days)",
	"auto_tempo_threshold_minutes":    "warden's tempo has no inactivity-based auto mode",
	"conversation_context_size":       "the judges read a fixed window of the transcript",
	"user_message_max_length":         "the judges clip messages themselves",
	"tdd_enabled":                     "no TDD gate; gates.verify_before_stop asks for tests after edits",
	"stop_hook_token_budget":          "the judges size their prompts themselves",
	"stop_hook_first_n_pairs":         "the judges size their prompts themselves",
	"log_level":                       "warden records every event in its store (`warden log`)",
	"preferred_subagent_model":        "warden does not steer the subagent model",
	"min_claude_version":              "`warden doctor` checks the Claude Code version",
	"reasoning_summary_intent_models": "no equivalent in warden's intent validation",
	"intent_declaration_tool_enabled": "no declare_intent MCP tool in warden",
	"langfuse_enabled":                "no Langfuse export",
	"danger_bash_enabled":             "warden's policy packs always parse shell commands (`warden policy list`)",
}

var tiers = map[string]bool{"haiku": true, "sonnet": true, "opus": true}

func (pm *PaceMaker) mapConfig(cfg map[string]json.RawMessage) {
	keys := make([]string, 0, len(cfg))
	for k := range cfg {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var v any
	for _, k := range keys {
		raw := cfg[k]
		_ = json.Unmarshal(raw, &v)
		shown := strings.TrimSpace(string(raw))
		switch {
		case direct[k] != "":
			key := direct[k]
			val, ok := typed(v, key)
			if !ok {
				pm.unmapped("config.json", k, shown, fmt.Sprintf("%s expects %s", key, kindName(key)))
				continue
			}
			pm.Settings = append(pm.Settings, Setting{From: k, Key: key, Value: val})
		case k == "tempo_mode" || k == "tempo_enabled":
			on, ok := v.(bool)
			note := ""
			if s, isStr := v.(string); isStr {
				on, ok = s != "off", true
				if s == "auto" {
					note = "auto (tempo after inactivity) has no equivalent: tempo is on"
				}
			}
			if !ok {
				pm.unmapped("config.json", k, shown, "expected on, off, auto or a boolean")
				continue
			}
			pm.Settings = append(pm.Settings, Setting{From: k, Key: "tempo.enabled", Value: on, Note: note})
		case k == "subagent_reminder_frequency" || k == "subagent_reminder_enabled":
			if k == "subagent_reminder_enabled" {
				continue // folded into the frequency below
			}
			n, ok := v.(float64)
			if !ok || n < 0 || n != float64(int(n)) {
				pm.unmapped("config.json", k, shown, "expected a whole number of tool calls")
				continue
			}
			s := Setting{From: k, Key: "reminders.subagent_every", Value: int(n)}
			if on, ok := jsonBool(cfg["subagent_reminder_enabled"]); ok && !on {
				s.From, s.Value, s.Note = "subagent_reminder_enabled, subagent_reminder_frequency", 0, "reminder disabled: 0 = never"
			}
			pm.Settings = append(pm.Settings, s)
		case k == "subagent_reminder_message":
			if s, ok := v.(string); ok && s != "" {
				pm.Settings = append(pm.Settings, Setting{From: k, Key: "reminders.subagent_text", Value: s})
			}
		case k == "hook_model":
			if s, _ := v.(string); tiers[s] {
				pm.Settings = append(pm.Settings, Setting{From: k, Key: "tempo.tier", Value: s})
			} else {
				pm.unmapped("config.json", k, shown, "warden's judges use Claude tiers (haiku, sonnet, opus) through llm.provider; auto and other vendors' models have no equivalent")
			}
		case noEquivalent[k] != "":
			pm.unmapped("config.json", k, shown, noEquivalent[k])
		default:
			pm.unmapped("config.json", k, shown, "unknown to this importer")
		}
	}
	// A reminder switched off with no frequency given still maps.
	if on, ok := jsonBool(cfg["subagent_reminder_enabled"]); ok && !on && cfg["subagent_reminder_frequency"] == nil {
		pm.Settings = append(pm.Settings, Setting{From: "subagent_reminder_enabled", Key: "reminders.subagent_every", Value: 0, Note: "reminder disabled: 0 = never"})
	}
}

// stateWhy says why each state.json field does not carry over: they are
// pace-maker's per-run bookkeeping, and warden keeps its own per session.
var stateWhy = map[string]string{
	"session_id":           "pace-maker's own session label; warden uses Claude Code's session ids",
	"last_poll_time":       "warden polls on its own lease in the store",
	"last_cleanup_time":    "warden prunes at SessionStart once a day",
	"in_subagent":          "warden tracks running subagents per session from SubagentStart/SubagentStop",
	"subagent_counter":     "warden counts tool calls per session for the reminder",
	"tool_execution_count": "warden counts tool calls per session for the reminder",
}

func (pm *PaceMaker) mapState(state map[string]json.RawMessage) {
	keys := make([]string, 0, len(state))
	for k := range state {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		why := stateWhy[k]
		if why == "" {
			why = "pace-maker bookkeeping with no warden equivalent"
		}
		pm.unmapped("state.json", k, clip(strings.TrimSpace(string(state[k])), 60), why)
	}
	pm.StateNote = "state.json holds per-run bookkeeping only; warden starts its own, nothing is lost"
}

func (pm *PaceMaker) unmapped(src, k, v, why string) {
	pm.Unmapped = append(pm.Unmapped, Unmapped{Source: src, Key: k, Value: clip(v, 60), Why: why})
}

func typed(v any, key string) (any, bool) {
	switch x := v.(type) {
	case bool:
		return x, kindName(key) == "a boolean"
	case float64:
		if floatKeys[key] {
			return x, true
		}
		if kindName(key) == "a whole number" && x == float64(int64(x)) {
			return int(x), true
		}
	}
	return nil, false
}

func kindName(key string) string {
	switch {
	case floatKeys[key]:
		return "a number"
	case key == "pacing.enabled" || key == "pacing.weekly_limit" || key == "pacing.five_hour_limit" || key == "validation.intent":
		return "a boolean"
	}
	return "a whole number"
}

func jsonBool(raw json.RawMessage) (bool, bool) {
	var b bool
	if raw == nil || json.Unmarshal(raw, &b) != nil {
		return false, false
	}
	return b, true
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// hookScript matches the hook commands pace-maker's install.sh registers:
// its scripts under ~/.claude/hooks/, one per event.
var hookScript = regexp.MustCompile(`\.claude/hooks/(session-start|user-prompt-submit|post-tool-use|pre-tool-use|stop|subagent-start|subagent-stop)\.sh\b`)

// scriptEvent is the event each pace-maker script is registered for.
var scriptEvent = map[string]string{
	"session-start": "SessionStart", "user-prompt-submit": "UserPromptSubmit", "post-tool-use": "PostToolUse",
	"pre-tool-use": "PreToolUse", "stop": "Stop", "subagent-start": "SubagentStart", "subagent-stop": "SubagentStop",
}

// IsPaceMakerHook reports whether a hook command registered for event is
// one of pace-maker's: its script for exactly that event (another tool's
// stop.sh under a different event, or elsewhere, is left alone).
func IsPaceMakerHook(event, command string) bool {
	m := hookScript.FindStringSubmatch(command)
	return m != nil && scriptEvent[m[1]] == event
}

// hookPath is the script path in a pace-maker hook command, with ~ and
// $HOME expanded.
func hookPath(command, home string) string {
	for _, f := range strings.Fields(command) {
		f = strings.Trim(f, `"'`)
		if hookScript.MatchString(f) {
			f = strings.Replace(f, "$HOME", home, 1)
			f = strings.Replace(f, "${HOME}", home, 1)
			if strings.HasPrefix(f, "~/") {
				f = filepath.Join(home, f[2:])
			}
			return f
		}
	}
	return ""
}

// OwnedByPaceMaker refines IsPaceMakerHook with the script itself: the
// names are generic (stop.sh), so a script that exists and never mentions
// pace-maker belongs to another tool and is left alone. A missing script
// counts as pace-maker's (its installer left the registration behind).
func OwnedByPaceMaker(event, command, home string) bool {
	if !IsPaceMakerHook(event, command) {
		return false
	}
	b, err := os.ReadFile(hookPath(command, home))
	if err != nil {
		return true
	}
	low := strings.ToLower(string(b))
	return strings.Contains(low, "pacemaker") || strings.Contains(low, "pace-maker") || strings.Contains(low, "pace_maker")
}
