package judge

import (
	"fmt"
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/session"
)

// Tool approval (validation.tool_approve, SPEC §5): low-risk tools pass at
// once; other calls no rule decided go to a haiku judge (APPROVE or DENY:
// reason) whose denial is appealed once with the recent conversation
// (OVERTURN or UPHOLD: reason). Workaround detection sits in front: after
// WorkaroundAfter denials of similar calls (SimilarKey) in a session, the
// next similar call is denied at once, without a model, and the user is
// told: retrying variations of a denied action is the pattern to stop.

// WorkaroundAfter is how many similar denials make the next similar call
// an escalation.
const WorkaroundAfter = 3

// maxDenialKeys bounds the per-session denial counts (the state is saved
// with every hook event).
const maxDenialKeys = 32

// ApproveStateKey is where tool approval keeps its session state: a key of
// its own, beside the judges' State, because the counts are written on
// denials from any handler, not only from judges.
const ApproveStateKey = "judge-approve"

// ApproveState is tool approval's part of a session's state.
type ApproveState struct {
	// Denials counts denials by similarity key.
	Denials map[string]int `json:"denials,omitempty"`
	// Escalated holds, per key, the user-prompt number at which the
	// escalation was given: once the user has spoken again, the key starts
	// over (they may well have said "go ahead").
	Escalated map[string]int `json:"escalated,omitempty"`
	// JudgedPrompt is the user-prompt number whose first judged call was
	// judged strictly (the first call after a prompt is strict).
	JudgedPrompt int `json:"judged_prompt,omitempty"`
}

// LoadApproveState reads tool approval's state (zero when absent).
func LoadApproveState(s *session.State) *ApproveState {
	st := &ApproveState{}
	if s != nil {
		s.Get(ApproveStateKey, st)
	}
	return st
}

// Save writes it back.
func (st *ApproveState) Save(s *session.State) {
	if s != nil {
		_ = s.Put(ApproveStateKey, st)
	}
}

// NoteDenial counts one denial of a call with this key. At the bound the
// least-denied key is forgotten: the keys that matter are the repeated ones.
func (st *ApproveState) NoteDenial(key string) {
	if key == "" {
		return
	}
	if st.Denials == nil {
		st.Denials = map[string]int{}
	}
	if _, ok := st.Denials[key]; !ok && len(st.Denials) >= maxDenialKeys {
		victim, low := "", 0
		for k, n := range st.Denials {
			if victim == "" || n < low || n == low && k < victim {
				victim, low = k, n
			}
		}
		delete(st.Denials, victim)
		delete(st.Escalated, victim)
	}
	st.Denials[key]++
}

// Workaround reports whether a call with this key is to be denied as a
// workaround: WorkaroundAfter similar calls were denied and the user has
// not prompted since the escalation was first given. prompt is the
// session's user-prompt count.
func (st *ApproveState) Workaround(key string, prompt int) bool {
	if key == "" || st.Denials[key] < WorkaroundAfter {
		return false
	}
	if at, ok := st.Escalated[key]; ok && at != prompt {
		delete(st.Denials, key)
		delete(st.Escalated, key)
		return false
	}
	if st.Escalated == nil {
		st.Escalated = map[string]int{}
	}
	st.Escalated[key] = prompt
	return true
}

// WorkaroundMessages are the escalation's reason (for Claude) and notice
// (for the user). n is the number of similar denials so far.
func WorkaroundMessages(key string, n int) (forClaude, forUser string) {
	forClaude = fmt.Sprintf("warden denied %d similar calls in this session (%s), and this is another attempt at the same thing. "+
		"Stop trying variations or other ways to get the same result. Tell the user what you wanted to do and why it was denied, "+
		"and ask them how to proceed; do not retry it unless they say so.", n, key)
	forUser = fmt.Sprintf("warden: Claude keeps trying a call that was denied %d times in this session (%s). "+
		"This attempt was blocked without review and Claude was told to stop and ask you. "+
		"If the action is wanted, run it yourself or tell Claude to go ahead.", n, key)
	return forClaude, forUser
}

// LowRisk reports whether tool matches one of the globs
// (validation.low_risk_tools: "Read", "mcp__*__read*"…). A bad glob
// matches nothing.
func LowRisk(tool string, globs []string) bool {
	for _, g := range globs {
		if g == tool {
			return true
		}
		if ok, err := path.Match(g, tool); err == nil && ok {
			return true
		}
	}
	return false
}

// DenialSlot is left in an appeal's prompt by the hook, which cannot know
// the denial yet; warden-helper judge puts the first verdict's reason there
// (FillDenial) before it runs the appeal.
const DenialSlot = "{{denial}}"

// FillDenial puts the denial's reason into an appeal prompt: only the first
// occurrence, which comes from the template (the conversation rendered
// after it may contain the same text).
func FillDenial(prompt, reason string) string {
	if strings.TrimSpace(reason) == "" {
		reason = "(the reviewer gave no reason)"
	}
	return strings.Replace(prompt, DenialSlot, reason, 1)
}
