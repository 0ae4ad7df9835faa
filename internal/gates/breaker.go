package gates

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/event"
)

// Breaker is the circuit breaker's state for one project. It is kept in the
// store (not in one session's state) so it survives Claude Code restarts:
// a tripped breaker stays tripped until the user resets it.
type Breaker struct {
	// Consecutive failures since the last success.
	Consecutive int `json:"consecutive"`
	// Signatures counts failures per normalized signature in this turn (a
	// success does not reset these; a new user prompt does).
	Signatures map[string]int `json:"signatures,omitempty"`
	// Recent are the last failures, newest last (at most maxRecent).
	Recent []Failure `json:"recent,omitempty"`
	// Tripped is set when a threshold is reached; only the user clears it.
	Tripped   bool      `json:"tripped"`
	TrippedAt time.Time `json:"tripped_at,omitempty"`
	Why       string    `json:"why,omitempty"`
}

// Failure is one failed tool call as the breaker remembers it.
type Failure struct {
	Time      time.Time `json:"time"`
	Tool      string    `json:"tool"`
	Signature string    `json:"signature"`
	Message   string    `json:"message"`
}

const maxRecent = 5

// BreakerKey is the store setting that holds a project's breaker.
func BreakerKey(projectDir string) string { return "breaker:" + projectDir }

// Failed records a failure and reports whether the breaker tripped now.
func (b *Breaker) Failed(f Failure, threshold int) (trippedNow bool) {
	b.Consecutive++
	if b.Signatures == nil {
		b.Signatures = map[string]int{}
	}
	b.Signatures[f.Signature]++
	b.Recent = append(b.Recent, f)
	if len(b.Recent) > maxRecent {
		b.Recent = b.Recent[len(b.Recent)-maxRecent:]
	}
	if b.Tripped {
		return false
	}
	switch {
	case b.Consecutive >= threshold:
		b.Why = fmt.Sprintf("%d consecutive tool failures", b.Consecutive)
	case b.Signatures[f.Signature] >= threshold:
		b.Why = fmt.Sprintf("the same failure %d times this turn", b.Signatures[f.Signature])
	default:
		return false
	}
	b.Tripped, b.TrippedAt = true, f.Time
	return true
}

// Succeeded resets the consecutive count (the per-turn signature counts
// stay, so fail-succeed-fail on the same error still trips).
func (b *Breaker) Succeeded() { b.Consecutive = 0 }

// NewTurn forgets the signature counts: they are per user prompt.
func (b *Breaker) NewTurn() { b.Signatures = nil }

// Reset clears everything; only the user may call it (typed prompt or CLI).
func (b *Breaker) Reset() { *b = Breaker{} }

// DenyReason says why mutations are blocked and how to get out.
func (b *Breaker) DenyReason() string {
	var s strings.Builder
	fmt.Fprintf(&s, "the circuit breaker tripped (%s): edits are blocked until the user resets it. Recent failures:", b.Why)
	for _, f := range b.Recent {
		fmt.Fprintf(&s, "\n  - %s: %s", f.Tool, clipText(f.Message, 160))
	}
	s.WriteString("\nStop retrying the same approach: read the errors, find the cause, and explain it to the user. " +
		"The user resets the breaker by typing `rb-` (or `warden breaker reset`).")
	return s.String()
}

// Status is a one-paragraph summary for `rb?` / `warden breaker status`,
// times in loc: the caller's zone (reqenv.Location), which in a resident
// server is not the process's time.Local.
func (b *Breaker) Status(threshold int, loc *time.Location) string {
	if b.Tripped {
		return fmt.Sprintf("breaker TRIPPED at %s (%s); %d recent failures. Type `rb-` to reset.",
			b.TrippedAt.In(loc).Format("15:04:05"), b.Why, len(b.Recent))
	}
	worst := 0
	for _, n := range b.Signatures {
		worst = max(worst, n)
	}
	return fmt.Sprintf("breaker closed: %d consecutive failures, worst repeated failure %d× this turn (trips at %d)",
		b.Consecutive, worst, threshold)
}

// FailureOf tells whether a PostToolUse / PostToolUseFailure event is a
// failed tool call, and its message. PostToolUseFailure always is; a
// PostToolUse is only when its tool_response says so in a field (is_error,
// a non-zero exit code, an error string) — never because its output text
// happens to contain "error".
func FailureOf(in *event.Input) (bool, string) {
	if in.HookEventName == event.PostToolUseFailure || in.Error != "" {
		if in.IsInterrupt {
			return false, "" // the user pressed Esc: not the tool's fault
		}
		return true, in.Error
	}
	if in.HookEventName != event.PostToolUse || len(in.ToolResponse) == 0 {
		return false, ""
	}
	var r struct {
		IsError  *bool           `json:"is_error"`
		ExitCode *int            `json:"exit_code"`
		ExitCam  *int            `json:"exitCode"`
		Error    json.RawMessage `json:"error"`
		Stderr   string          `json:"stderr"`
	}
	if json.Unmarshal(in.ToolResponse, &r) != nil {
		return false, ""
	}
	msg := r.Stderr
	switch {
	case r.IsError != nil && *r.IsError:
	case r.ExitCode != nil && *r.ExitCode != 0:
		msg = fmt.Sprintf("exit code %d: %s", *r.ExitCode, r.Stderr)
	case r.ExitCam != nil && *r.ExitCam != 0:
		msg = fmt.Sprintf("exit code %d: %s", *r.ExitCam, r.Stderr)
	case len(r.Error) > 0 && string(r.Error) != "null" && string(r.Error) != `""` && string(r.Error) != "false":
		var s string
		if json.Unmarshal(r.Error, &s) == nil {
			msg = s
		} else {
			msg = string(r.Error)
		}
	default:
		return false, ""
	}
	return true, msg
}

var sigPatterns = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`(?:[A-Za-z]:)?(?:[\w.~-]*[/\\])+[\w.-]*`), // paths
		regexp.MustCompile(`\b0x[0-9a-fA-F]+\b|\b[0-9a-fA-F]{7,}\b`),  // hex ids, hashes
		regexp.MustCompile(`\d+`),                                     // numbers, line:col
		regexp.MustCompile(`\s+`),
	}
})

// Signature normalizes a failure message so the same error at another
// line, path, id or count counts as the same failure.
func Signature(tool, msg string) string {
	p := sigPatterns()
	s := strings.ToLower(msg)
	s = p[0].ReplaceAllString(s, "<path>")
	s = p[1].ReplaceAllString(s, "<id>")
	s = p[2].ReplaceAllString(s, "<n>")
	s = strings.TrimSpace(p[3].ReplaceAllString(s, " "))
	return tool + ": " + clipText(s, 200)
}

func clipText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
