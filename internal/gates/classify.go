// Package gates holds warden's workflow gates: prompt classification, the
// research gate, the circuit breaker, safemode, the startup gate and
// verify-before-stop. Gates are hook handlers (internal/handlers/gates_*.go)
// that deny mutations the way policy rules do; this package is their pure
// logic and state.
package gates

import (
	"strings"
	"unicode"
)

// Kind is what a user prompt asks for.
type Kind string

const (
	// Passthrough prompts carry no new intent: slash commands, "yes",
	// "continue", warden commands. The previous classification stands.
	Passthrough Kind = "passthrough"
	// Question asks for information; it does not open the research gate.
	Question Kind = "question"
	// Task asks for a change.
	Task Kind = "task"
	// BigTask is a task with several parts (a list, several sentences of
	// instructions, or a long prompt).
	BigTask Kind = "big_task"
)

// passthroughWords are whole prompts that only steer the current work.
var passthroughWords = map[string]bool{
	"yes": true, "y": true, "no": true, "n": true, "ok": true, "okay": true, "continue": true,
	"go": true, "go on": true, "go ahead": true, "proceed": true, "keep going": true, "carry on": true,
	"thanks": true, "thank you": true, "stop": true, "done": true, "retry": true, "try again": true,
	"sure": true, "yep": true, "nope": true, "lgtm": true, "do it": true, "next": true,
	"s+": true, "s-": true, "s?": true, "rb-": true, "rb?": true, "reset breaker": true,
}

// interrogatives open a question (also after "and", "so", "but").
var interrogatives = map[string]bool{
	"what": true, "why": true, "how": true, "where": true, "when": true, "which": true, "who": true,
	"whose": true, "whom": true, "is": true, "are": true, "was": true, "were": true, "do": true,
	"does": true, "did": true, "can": true, "could": true, "would": true, "should": true,
	"will": true, "may": true, "might": true, "has": true, "have": true, "had": true, "am": true,
	"isn't": true, "aren't": true, "doesn't": true, "don't": true, "didn't": true, "won't": true,
	"shouldn't": true, "wouldn't": true, "couldn't": true, "can't": true,
}

// explainVerbs ask for an explanation, not a change, even as imperatives.
var explainVerbs = map[string]bool{
	"explain": true, "describe": true, "tell": true, "show": true, "summarize": true, "summarise": true,
	"list": true, "compare": true, "clarify": true, "walk": true, "outline": true, "define": true,
}

// taskVerbs are imperatives that change something.
var taskVerbs = map[string]bool{
	"add": true, "fix": true, "implement": true, "write": true, "create": true, "build": true,
	"refactor": true, "remove": true, "delete": true, "rename": true, "update": true, "change": true,
	"make": true, "move": true, "replace": true, "convert": true, "migrate": true, "upgrade": true,
	"bump": true, "install": true, "set": true, "configure": true, "enable": true, "disable": true,
	"port": true, "rewrite": true, "optimize": true, "optimise": true, "improve": true, "extract": true,
	"split": true, "merge": true, "generate": true, "scaffold": true, "deploy": true, "release": true,
	"commit": true, "push": true, "run": true, "test": true, "debug": true, "resolve": true,
	"handle": true, "support": true, "introduce": true, "drop": true, "clean": true, "format": true,
	"lint": true, "document": true, "edit": true, "modify": true, "patch": true, "wire": true,
	"hook": true, "integrate": true, "finish": true, "complete": true, "continue": true, "start": true,
	"use": true, "switch": true, "restructure": true, "reorganize": true, "simplify": true, "inline": true,
	"revert": true, "undo": true, "translate": true, "increase": true, "decrease": true, "reduce": true,
	"speed": true, "cache": true, "parallelize": true, "validate": true, "check": true, "ensure": true,
	"prevent": true, "allow": true, "let": true, "please": true, "go": true, "apply": true, "serve": true, "embed": true, "expose": true,
}

// bigTaskWords is the length past which a task counts as big.
const bigTaskWords = 60

// Classify decides, deterministically, what a prompt asks for. Rules, in
// order:
//  1. empty, a slash command (/…), a warden command or a steering word
//     ("yes", "continue", "s+"…) → Passthrough;
//  2. a list (two or more lines starting with -, * or a number) or more than
//     bigTaskWords words → BigTask;
//  3. the first word, once polite openings are dropped ("please", "can you",
//     "let's"… make a request polite, not a question), is a task verb → Task,
//     or BigTask when three or more clauses start with a task verb;
//  4. it ends with "?" or starts with an interrogative ("what", "is", "can")
//     or an explain verb ("explain", "show") → Question;
//  5. otherwise, clauses that start with a task verb ("…, add that") make it
//     a Task (three or more: BigTask); none make it a Question.
func Classify(prompt string) Kind {
	p := strings.TrimSpace(prompt)
	low := strings.ToLower(p)
	if p == "" || strings.HasPrefix(p, "/") || passthroughWords[strings.Trim(low, ".! ")] ||
		strings.HasPrefix(low, "warden ") || low == "warden" || strings.HasPrefix(low, "pace-maker ") {
		return Passthrough
	}
	if listItems(p) >= 2 || len(strings.Fields(low)) > bigTaskWords {
		return BigTask
	}
	tasks := taskClauses(low)
	sized := func() Kind {
		if tasks >= 3 {
			return BigTask
		}
		return Task
	}
	first := firstWord(stripPolite(low))
	if taskVerbs[first] {
		return sized()
	}
	if strings.HasSuffix(p, "?") || interrogatives[first] || explainVerbs[first] {
		return Question
	}
	if tasks > 0 {
		return sized()
	}
	return Question
}

// taskClauses counts the clauses (split at punctuation, "and", "then") that
// start with a task verb.
func taskClauses(low string) int {
	n := 0
	for _, c := range strings.FieldsFunc(low, func(r rune) bool { return strings.ContainsRune(".,;:!?\n", r) }) {
		for _, part := range splitWords(c, " and ", " then ") {
			if taskVerbs[firstWord(stripPolite(strings.TrimSpace(part)))] {
				n++
			}
		}
	}
	return n
}

func splitWords(s string, seps ...string) []string {
	parts := []string{s}
	for _, sep := range seps {
		var next []string
		for _, p := range parts {
			next = append(next, strings.Split(p, sep)...)
		}
		parts = next
	}
	return parts
}

// politePrefixes turn a request into a polite one without making it a
// question: "can you add X?" asks for a change.
var politePrefixes = []string{
	"please ", "can you ", "could you ", "would you ", "will you ", "can we ", "could we ",
	"let's ", "lets ", "i want you to ", "i'd like you to ", "i need you to ", "go ahead and ",
	"now ", "also ", "then ", "and ", "ok ", "okay ", "so ", "next, ", "next ", "alright, ", "great, ",
}

func stripPolite(s string) string {
	for changed := true; changed; {
		changed = false
		for _, p := range politePrefixes {
			if strings.HasPrefix(s, p) {
				s, changed = strings.TrimSpace(s[len(p):]), true
			}
		}
	}
	return s
}

func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return trimWord(f[0])
}

func trimWord(w string) string {
	return strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '-' })
}

// listItems counts lines that look like list items.
func listItems(p string) int {
	n := 0
	for _, line := range strings.Split(p, "\n") {
		l := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(l, "- "), strings.HasPrefix(l, "* "), strings.HasPrefix(l, "• "):
			n++
		case len(l) > 2 && l[0] >= '0' && l[0] <= '9' && (l[1] == '.' || l[1] == ')'):
			n++
		}
	}
	return n
}
