package judge

import (
	"errors"
	"strings"
)

// Kind is the verdict vocabulary a judge answers in. Verdicts are plain
// text whose first line carries the decision, so any model (and a fake
// server) can produce them.
type Kind string

const (
	// KindTempo: APPROVED, or BLOCKED: <what is missing>.
	KindTempo Kind = "tempo"
	// KindReview: APPROVED, or the reviewer's feedback (anything else).
	KindReview Kind = "review"
	// KindApprove: APPROVE, or DENY: <reason> (tool approval).
	KindApprove Kind = "approve"
	// KindAppeal: OVERTURN (the denial is lifted), or UPHOLD: <reason>.
	KindAppeal Kind = "appeal"
	// KindCheck: OK, or BLOCK: <reason> (every other judge).
	KindCheck Kind = "check"
)

// Words returns the pass and fail words of a kind ("" fail word: any other
// text is the failure, as in a review).
func (k Kind) Words() (pass, fail string) {
	switch k {
	case KindTempo:
		return "APPROVED", "BLOCKED"
	case KindReview:
		return "APPROVED", ""
	case KindApprove:
		return "APPROVE", "DENY"
	case KindAppeal:
		return "OVERTURN", "UPHOLD"
	}
	return "OK", "BLOCK"
}

// Format is the instruction that tells a model how to answer, used at the
// end of every prompt and in the corrective retry.
func (k Kind) Format() string {
	pass, fail := k.Words()
	if fail == "" {
		return "Answer with APPROVED alone on the first line if there is nothing to fix; otherwise answer with your specific feedback (what to change, where, and why), starting on the first line."
	}
	return "Answer with exactly one of these on the first line, and nothing before it:\n" +
		pass + "\n" + fail + ": <one or two sentences saying specifically why>"
}

// Verdict is a parsed judge answer.
type Verdict struct {
	// Pass is true for the pass word (APPROVED, APPROVE, OVERTURN, OK).
	Pass bool `json:"pass"`
	// Decision is the word found (for a review's feedback: "FEEDBACK").
	Decision string `json:"decision"`
	// Reason is the text after the word: what is missing, why denied.
	Reason string `json:"reason,omitempty"`
}

// ErrNoVerdict is returned when a reply carries no decision in the kind's
// vocabulary.
var ErrNoVerdict = errors.New("the reply carries no verdict")

// synonyms a model sometimes uses for the fail or pass words.
var synonyms = map[string]string{
	"APPROVE": "APPROVED", "APPROVED": "APPROVE", "BLOCK": "BLOCKED", "BLOCKED": "BLOCK",
	"DENIED": "DENY", "OVERTURNED": "OVERTURN", "UPHELD": "UPHOLD",
}

// Parse reads a reply. It tolerates surrounding whitespace, markdown
// emphasis (**, __, `, #, >, list bullets), a "Verdict:" label and a preamble
// line before the decision. A review is APPROVED or, for any other non-empty
// text, feedback.
func Parse(k Kind, text string) (Verdict, error) {
	pass, fail := k.Words()
	lines := nonEmptyLines(text)
	if len(lines) == 0 {
		return Verdict{}, ErrNoVerdict
	}
	// The decision is on the first line, or on the second after a preamble.
	for i := 0; i < len(lines) && i < 2; i++ {
		word, rest, ok := leadingWord(lines[i])
		if !ok {
			continue
		}
		rest = joinReason(rest, lines[i+1:])
		isPass := word == pass || synonyms[word] == pass
		isFail := fail != "" && (word == fail || synonyms[word] == fail)
		switch {
		case isPass:
			return Verdict{Pass: true, Decision: pass}, nil
		case isFail:
			if rest == "" {
				rest = "(the judge gave no reason)"
			}
			return Verdict{Decision: fail, Reason: rest}, nil
		}
	}
	if fail == "" {
		return Verdict{Decision: "FEEDBACK", Reason: strings.TrimSpace(text)}, nil
	}
	return Verdict{}, ErrNoVerdict
}

// leadingWord strips markdown from a line and returns its first word in
// upper case when the line starts with a decision-like word: an all-caps
// word, or any-case word followed by ":" or the end of the line.
func leadingWord(line string) (word, rest string, ok bool) {
	s := stripMarkup(line)
	if l := strings.ToLower(s); strings.HasPrefix(l, "verdict:") || strings.HasPrefix(l, "decision:") || strings.HasPrefix(l, "answer:") {
		_, s, _ = strings.Cut(s, ":")
		s = stripMarkup(s)
	}
	i := 0
	for i < len(s) && (s[i] >= 'A' && s[i] <= 'Z' || s[i] >= 'a' && s[i] <= 'z') {
		i++
	}
	if i == 0 {
		return "", "", false
	}
	w := s[:i]
	after := stripMarkup(s[i:])
	upper := strings.ToUpper(w)
	if w != upper && after != "" && !strings.HasPrefix(after, ":") {
		return "", "", false
	}
	after = strings.TrimLeft(after, ":-–—., \t")
	return upper, stripMarkup(after), true
}

func stripMarkup(s string) string {
	s = strings.TrimSpace(s)
	for {
		t := strings.TrimLeft(s, "*_`#> \t")
		t = strings.TrimPrefix(t, "- ")
		t = strings.TrimRight(t, "*_` \t")
		if t == s {
			return t
		}
		s = t
	}
}

func joinReason(first string, more []string) string {
	parts := []string{}
	if first != "" {
		parts = append(parts, first)
	}
	for _, l := range more {
		parts = append(parts, strings.TrimSpace(l))
	}
	return strings.TrimSpace(strings.Join(parts, "\n"))
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(stripMarkup(l)) != "" {
			out = append(out, l)
		}
	}
	return out
}
