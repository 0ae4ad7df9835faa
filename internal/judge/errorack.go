package judge

import (
	"path/filepath"
	"strings"
	"unicode"
)

// Error acknowledgement (validation.error_ack): after a failed tool call,
// the next mutating call must follow text in which Claude acknowledges the
// failure, so it does not carry on as if the command had worked. The check
// is a word pattern first: an acknowledging word (error, failed, fix,
// because…) together with something from the failure itself (a word of the
// error message, the failed command or file). Both present: acknowledged.
// Neither: not acknowledged. Only one: unclear, and a haiku judge decides.

// Ack is the pattern's answer.
type Ack int

const (
	// AckMissing: nothing written since the failure acknowledges it.
	AckMissing Ack = iota
	// AckFound: the text names the failure and reacts to it.
	AckFound
	// AckUnclear: one half of the pattern only; a judge decides.
	AckUnclear
)

// AckInput is what the pattern looks at.
type AckInput struct {
	// Error is the failure's message; Tool the failed tool; Target its
	// command (Bash) or file.
	Error, Tool, Target string
	// Texts is what Claude wrote since the failure, oldest first.
	Texts []string
}

// CheckAck runs the pattern. The second result says what matched, for the
// record and for tests.
func CheckAck(in AckInput) (Ack, string) {
	text := strings.Join(in.Texts, "\n")
	if strings.TrimSpace(text) == "" {
		return AckMissing, "no text since the failure"
	}
	ws := words(text)
	seen := map[string]bool{}
	for _, w := range ws {
		seen[w] = true
	}
	ack := ackWord(ws, strings.ReplaceAll(strings.ToLower(text), "’", "'"))
	ref := ""
	for _, r := range AckReferences(in) {
		if seen[r] {
			ref = r
			break
		}
	}
	switch {
	case ack != "" && ref != "":
		return AckFound, ack + " + " + ref
	case ack != "":
		return AckUnclear, "acknowledging word " + ack + " but nothing from the failure"
	case ref != "":
		return AckUnclear, "mentions " + ref + " but no acknowledging word"
	}
	return AckMissing, "neither an acknowledging word nor anything from the failure"
}

// ackPrefixes start words that react to a failure.
var ackPrefixes = []string{"error", "fail", "fix", "because", "broke", "wrong", "mistake", "issue", "problem",
	"caus", "exception", "panic", "crash", "typo", "missing", "oops", "apolog", "sorry", "didn", "doesn",
	"couldn", "wasn", "isn", "cannot", "unable", "reject", "denied", "unexpected", "invalid", "undefined"}

// ackPhrases are multi-word reactions.
var ackPhrases = []string{"did not", "does not", "could not", "was not", "is not", "not found", "no such",
	"there is no", "there's no", "can't", "won't", "instead of"}

func ackWord(ws []string, lower string) string {
	for _, w := range ws {
		for _, p := range ackPrefixes {
			if strings.HasPrefix(w, p) {
				return w
			}
		}
	}
	for _, p := range ackPhrases {
		if strings.Contains(lower, p) {
			return p
		}
	}
	return ""
}

// AckReferences are the words that tie a text to this failure: distinctive
// words of the error message, of the failed command (its program and
// operands) or file (base name and stem), and the tool's name.
func AckReferences(in AckInput) []string {
	var out []string
	add := func(w string, min int) {
		if len([]rune(w)) < min || refStop[w] || isNumber(w) || contains(out, w) {
			return
		}
		for _, p := range ackPrefixes {
			if strings.HasPrefix(w, p) {
				return // an acknowledging word is no evidence of which failure
			}
		}
		out = append(out, w)
	}
	if in.Tool == "Bash" || in.Tool == "PowerShell" {
		for i, f := range strings.Fields(in.Target) {
			if strings.HasPrefix(f, "-") || i > 8 {
				continue
			}
			f = filepath.Base(strings.Trim(f, "'\"`;&|()"))
			for _, w := range words(f) {
				add(w, 3)
			}
		}
	} else if in.Target != "" {
		base := filepath.Base(in.Target)
		for _, w := range words(base) {
			add(w, 3)
		}
	}
	for _, w := range words(in.Error) {
		add(w, 4)
	}
	add(strings.ToLower(in.Tool), 4)
	return out
}

// refStop are words too common to tie a text to a failure.
var refStop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`the and for with from that this there have has been into file files line lines
		column when what which while your then than will would could should must does done were also only some more
		most other such same each make made just like over after before about tool call command output stderr stdout
		true false null none found expected got want exit code status home users tmp usr var root bin dev run let
		now see can not new use used all any are was you its it's here where want need try again sure okay
		bash edit write read`) {
		m[w] = true
	}
	return m
}()

func isNumber(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// words splits s into lower-case words of letters, digits and underscores.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	})
}

// AckWindow is the assistant text a check can see for the current call.
type AckWindow struct {
	// Texts were written after the failed call, oldest first.
	Texts []string
	// SameMessage: the current call is in the message that made the failed
	// call (parallel tool calls): Claude has had no chance to react yet.
	SameMessage bool
	// Current: the transcript holds the current call (or nothing tells
	// otherwise), so Texts includes what Claude wrote just before it.
	Current bool
}

// AckWindowOf finds in t the text written since the failed call failedID,
// up to the current call currentID. When the failed call is no longer in
// the kept tail, everything kept came after it.
func AckWindowOf(t *Transcript, failedID, currentID string) AckWindow {
	w := AckWindow{Current: currentID == "" || t.messageOf(currentID) >= 0}
	from := 0
	if i := t.messageOf(failedID); failedID != "" && i >= 0 {
		if j := t.messageOf(currentID); j == i {
			w.SameMessage = true
			return w
		}
		from = i + 1
	} else if failedID == "" {
		// No id to anchor on: the last two texts, as intent validation reads.
		w.Texts = t.AssistantTexts(2)
		return w
	}
	for _, m := range t.Assistant[from:] {
		if m.Text != "" {
			w.Texts = append(w.Texts, m.Text)
		}
	}
	return w
}

// HasToolCall reports whether the transcript holds tool call id yet.
func (t *Transcript) HasToolCall(id string) bool { return t.messageOf(id) >= 0 }

// messageOf is the index of the assistant message holding tool call id, or -1.
func (t *Transcript) messageOf(id string) int {
	if id == "" {
		return -1
	}
	for i := len(t.Assistant) - 1; i >= 0; i-- {
		for _, c := range t.Assistant[i].Tools {
			if c.ID == id {
				return i
			}
		}
	}
	return -1
}

// answerCommands exit 1 to answer "no": no match (grep, rg), a difference
// (diff, cmp), a false test.
var answerCommands = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true,
	"diff": true, "cmp": true, "test": true, "[": true, "[[": true}

// AnswerNotFailure: a Bash "failure" that is an answer — exit code 1 with
// no output from a command whose last program answers by its exit code
// (`grep -r TODO src` finding nothing). It is no failure to acknowledge.
func AnswerNotFailure(tool, command, errText string) bool {
	if tool != "Bash" || strings.TrimSpace(errText) != "Exit code 1" {
		return false
	}
	last := command
	for _, sep := range []string{"|", "&&", ";"} {
		if i := strings.LastIndex(last, sep); i >= 0 {
			last = last[i+len(sep):]
		}
	}
	f := strings.Fields(last)
	return len(f) > 0 && answerCommands[filepath.Base(f[0])]
}
