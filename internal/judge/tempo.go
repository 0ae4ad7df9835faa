package judge

import (
	"fmt"
	"strings"
)

// Settings keys (store settings) of tempo's switches. The user's commands
// write them: `warden tempo on|off` (all sessions) and `warden tempo
// session on|off` (one session; it wins over everything else).
const (
	SettingTempo         = "tempo"
	settingTempoSessionP = "tempo_session:"
)

// SessionSetting is the settings key of a session's tempo override.
func SessionSetting(sessionID string) string { return settingTempoSessionP + sessionID }

// TempoActive decides whether tempo judges this stop: the session override
// (typed by the user) wins, then the user's global switch, then
// tempo.enabled; without a provider tempo is off whatever the switches say.
func TempoActive(enabled bool, global, session, provider string) (bool, string) {
	on, why := enabled, "tempo.enabled = "+fmt.Sprint(enabled)
	switch global {
	case "on", "off":
		on, why = global == "on", "warden tempo "+global
	}
	switch session {
	case "on", "off":
		on, why = session == "on", "warden tempo session "+session+" (this session)"
	}
	if on && provider == ProviderNone {
		return false, why + ", but no LLM provider is available"
	}
	return on, why
}

// TempoStep is what tempo does at one stop.
type TempoStep int

const (
	// TempoJudge: ask the judge.
	TempoJudge TempoStep = iota
	// TempoGiveUp: the cap of consecutive blocks is reached: allow and say so.
	TempoGiveUp
)

// TempoNext decides, from the blocks already made in this turn, whether to
// judge or give up. At the cap tempo always allows, stop_hook_active or
// not, so Claude Code's own cap (8) is never what ends the loop.
func TempoNext(blocks, maxBlocks int) TempoStep {
	if maxBlocks < 1 {
		maxBlocks = 1
	}
	if blocks >= maxBlocks {
		return TempoGiveUp
	}
	return TempoJudge
}

// TempoVars builds the tempo prompt's variables: the user's prompts of the
// session, Claude's final message (last_assistant_message from the Stop
// input, which is current, before the transcript, which may lag), and the
// last tool results.
func TempoVars(prompts []string, lastAssistantInput string, t *Transcript) map[string]string {
	last := strings.TrimSpace(lastAssistantInput)
	if last == "" && t != nil {
		last = t.LastAssistantText()
	}
	var results []string
	if t != nil {
		rs := t.Results
		if len(rs) > 5 {
			rs = rs[len(rs)-5:]
		}
		for _, r := range rs {
			label := "result"
			if r.IsError {
				label = "ERROR"
			}
			results = append(results, fmt.Sprintf("- %s: %s", label, clip(r.Text, 800)))
		}
	}
	return map[string]string{
		"prompts":      numbered(prompts, 2000),
		"last_message": clip(last, 6000),
		"tool_results": strings.Join(results, "\n"),
	}
}

// TempoProtocol is what SessionStart tells Claude when tempo is on.
func TempoProtocol(maxBlocks int) string {
	return fmt.Sprintf("warden tempo is on: when you stop, a judge acting for the user reads the user's requests and your final message "+
		"and decides whether the work is done. If it is not, your stop is blocked with what is missing: do that, then stop again. "+
		"End each turn with a final message that says plainly what you did, what you verified (tests run, results) and anything left undone and why. "+
		"Tempo gives up after %d consecutive blocks in a turn.", maxBlocks)
}

func numbered(xs []string, each int) string {
	var b strings.Builder
	for i, x := range xs {
		fmt.Fprintf(&b, "%d. %s\n", i+1, clip(x, each))
	}
	return strings.TrimSpace(b.String())
}
