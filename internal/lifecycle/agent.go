package lifecycle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Signal statuses.
const (
	StatusComplete = "complete"
	StatusPartial  = "partial"
	StatusBlocked  = "blocked"
)

// Signal is the machine-readable block at the end of an agent handoff.
type Signal struct {
	From          string   `json:"from"`
	To            string   `json:"to"`
	TaskID        string   `json:"task_id"`
	Status        string   `json:"status"`
	FilesModified []string `json:"files_modified"`
	OpenQuestions []string `json:"open_questions"`
	Blocking      bool     `json:"blocking"`
}

// Validate reports what makes a Signal untrustworthy.
func (s Signal) Validate() error {
	var errs []string
	if strings.TrimSpace(s.From) == "" {
		errs = append(errs, "from is empty")
	}
	if strings.TrimSpace(s.To) == "" {
		errs = append(errs, "to is empty")
	}
	if strings.TrimSpace(s.TaskID) == "" {
		errs = append(errs, "task_id is empty")
	}
	switch s.Status {
	case StatusComplete, StatusPartial, StatusBlocked:
	default:
		errs = append(errs, fmt.Sprintf("status %q is not complete, partial or blocked", s.Status))
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// AgentHandoff is one inter-agent handoff.
type AgentHandoff struct {
	Signal
	Context         string
	Findings        string
	Recommendations string
	Time            time.Time
}

// WriteAgentHandoff writes .warden/handoffs/agent-<task>-<stamp>.md with the
// sections From, To, Timestamp, Context, Findings, Files Modified, Open
// Questions, Recommendations and a fenced Signal JSON block.
func WriteAgentHandoff(project string, h AgentHandoff) (string, error) {
	if h.Time.IsZero() {
		h.Time = time.Now()
	}
	if h.FilesModified == nil {
		h.FilesModified = []string{}
	}
	if h.OpenQuestions == nil {
		h.OpenQuestions = []string{}
	}
	if err := h.Signal.Validate(); err != nil {
		return "", err
	}
	sig, err := json.MarshalIndent(h.Signal, "", "  ")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Agent handoff: %s\n\n", oneLine(h.TaskID))
	section := func(title, body string) {
		body = strings.TrimSpace(body)
		if body == "" {
			body = "(none)"
		}
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", title, body)
	}
	list := func(xs []string) string {
		var l []string
		for _, x := range xs {
			l = append(l, "- "+oneLine(x))
		}
		return strings.Join(l, "\n")
	}
	section("From", h.From)
	section("To", h.To)
	section("Timestamp", Timestamp(h.Time))
	section("Context", h.Context)
	section("Findings", h.Findings)
	section("Files Modified", list(h.FilesModified))
	section("Open Questions", list(h.OpenQuestions))
	section("Recommendations", h.Recommendations)
	fmt.Fprintf(&b, "## Signal\n\n```json\n%s\n```\n", sig)
	return createUnique(HandoffDir(project), "agent-"+slug(h.TaskID)+"-", h.Time, []byte(b.String()))
}

// slug keeps a task id usable in a file name: lower-case letters, digits
// and single dashes, at most 48 characters.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 48 {
			break
		}
	}
	out := strings.Trim(b.String(), "-")
	if out == "" {
		return "task"
	}
	return out
}

// Kinds of handoff.
const (
	KindSession = "session"
	KindAgent   = "agent"
)

// Entry is one handoff file as `warden handoff check` reports it.
type Entry struct {
	Kind string    `json:"kind"`
	Path string    `json:"path"`
	Time time.Time `json:"time"`
	// Valid is false for an agent handoff whose Signal is missing or
	// malformed; Problem says why. Session handoffs carry no Signal.
	Valid   bool    `json:"valid"`
	Problem string  `json:"problem,omitempty"`
	Signal  *Signal `json:"signal,omitempty"`

	mtime time.Time
}

func stampOf(name string) (time.Time, bool) {
	base := strings.TrimSuffix(name, ".md")
	try := func(b string) (time.Time, bool) {
		if len(b) < len(stampLayout) {
			return time.Time{}, false
		}
		t, err := time.Parse(stampLayout, b[len(b)-len(stampLayout):])
		return t, err == nil
	}
	if t, ok := try(base); ok {
		return t, true
	}
	// A collision suffix: <stamp>-N.
	if i := strings.LastIndexByte(base, '-'); i > 0 {
		if t, ok := try(base[:i]); ok {
			return t, true
		}
	}
	return time.Time{}, false
}

// ListHandoffs lists the project's handoffs, newest first, validating every
// agent Signal.
func ListHandoffs(project string) ([]Entry, error) {
	dir := HandoffDir(project)
	var out []Entry
	for _, g := range []struct{ kind, glob string }{{KindSession, SessionGlob}, {KindAgent, AgentGlob}} {
		names, err := filepath.Glob(filepath.Join(dir, g.glob))
		if err != nil {
			return nil, err
		}
		for _, p := range names {
			fi, err := os.Stat(p)
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			e := Entry{Kind: g.kind, Path: p, Valid: true, mtime: fi.ModTime()}
			if t, ok := stampOf(filepath.Base(p)); ok {
				e.Time = t
			} else {
				e.Time = fi.ModTime().UTC()
			}
			if g.kind == KindAgent {
				sig, err := ReadSignal(p)
				if err != nil {
					e.Valid, e.Problem = false, err.Error()
				} else {
					e.Signal = sig
				}
			}
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Time.Equal(out[j].Time) {
			return out[i].Time.After(out[j].Time)
		}
		if !out[i].mtime.Equal(out[j].mtime) {
			return out[i].mtime.After(out[j].mtime)
		}
		if len(out[i].Path) != len(out[j].Path) { // a "-N" collision suffix is newer
			return len(out[i].Path) > len(out[j].Path)
		}
		return out[i].Path > out[j].Path
	})
	return out, nil
}

// ReadSignal extracts and validates the Signal block of an agent handoff:
// the last ```json fence after a "## Signal" heading (or the last ```json
// fence of the file when there is no heading).
func ReadSignal(path string) (*Signal, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseSignal(b)
}

// ParseSignal is ReadSignal on bytes.
func ParseSignal(b []byte) (*Signal, error) {
	text := string(b)
	if i := strings.LastIndex(text, "## Signal"); i >= 0 {
		text = text[i:]
	}
	start := strings.LastIndex(text, "```json")
	if start < 0 {
		return nil, errors.New("no Signal block (```json fence)")
	}
	body := text[start+len("```json"):]
	end := strings.Index(body, "```")
	if end < 0 {
		return nil, errors.New("Signal block is not closed")
	}
	body = body[:end]
	dec := json.NewDecoder(bytes.NewReader([]byte(body)))
	var raw map[string]json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("Signal is not valid JSON: %v", err)
	}
	if dec.More() {
		return nil, errors.New("Signal has data after the JSON object")
	}
	for _, k := range []string{"from", "to", "task_id", "status", "files_modified", "open_questions", "blocking"} {
		if _, ok := raw[k]; !ok {
			return nil, fmt.Errorf("Signal lacks %q", k)
		}
	}
	var s Signal
	if err := json.Unmarshal([]byte(body), &s); err != nil {
		return nil, fmt.Errorf("Signal has a field of the wrong type: %v", err)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("Signal invalid: %v", err)
	}
	return &s, nil
}

// Blocked returns the newest agent handoff when it is newer than the newest
// session handoff and its (valid) Signal says blocked; nil otherwise.
// entries must be newest first, as ListHandoffs returns them.
func Blocked(entries []Entry) *Entry {
	for i, e := range entries {
		switch e.Kind {
		case KindSession:
			return nil // a session handoff came after every agent handoff
		case KindAgent:
			if e.Valid && e.Signal != nil && e.Signal.Status == StatusBlocked {
				return &entries[i]
			}
			return nil
		}
	}
	return nil
}
