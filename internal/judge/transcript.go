package judge

import (
	"encoding/json"
	"io"
	"os"
	"strings"

	"github.com/warden-dev/warden/internal/transcript"
)

// Transcript is what the judges take from a Claude Code transcript
// (claude-code-hooks.md §5): the user's prompts, the assistant's messages
// with their text and tool calls apart, and the tool results, oldest first.
//
// internal/lifecycle's ReadDigest serves handoffs (first prompt, todos,
// last text); the judges need more (tool calls, results, message grouping,
// a chronological tail), so what is kept is separate; the lines are read
// the same way (internal/transcript): only the tail of a large file,
// malformed or partial lines and unknown entry types skipped, sidechain
// entries ignored.
type Transcript struct {
	Prompts   []string
	Assistant []AssistantMessage
	Results   []ToolResult
	// Recent is the conversation's tail as readable lines, oldest first.
	Recent []string
}

// AssistantMessage is one API message (Claude Code writes each content
// block as its own line sharing message.id; they are joined back here).
type AssistantMessage struct {
	ID    string
	Text  string
	Tools []ToolCall
}

// ToolCall is a tool_use block.
type ToolCall struct {
	ID    string
	Name  string
	Input string
}

// ToolResult is a tool_result block.
type ToolResult struct {
	ToolUseID string
	Text      string
	IsError   bool
}

// Bounds of what is read and kept.
const (
	transcriptTail = 4 << 20
	keepPrompts    = 20
	keepAssistant  = 10
	keepResults    = 10
	keepRecent     = 40
	recentClip     = 600
)

// ReadTranscript reads the tail of the transcript at path. A missing or
// empty path gives an empty transcript and the error.
func ReadTranscript(path string) (*Transcript, error) {
	t := &Transcript{}
	if path == "" {
		return t, os.ErrNotExist
	}
	f, err := os.Open(path)
	if err != nil {
		return t, err
	}
	defer f.Close()
	var r io.Reader = f
	if fi, err := f.Stat(); err == nil && fi.Size() > transcriptTail {
		if r, err = transcript.From(f, fi.Size()-transcriptTail); err != nil {
			return t, err
		}
	}
	t.scan(r)
	return t, nil
}

// ParseTranscript reads a whole transcript from r (tests, small inputs).
func ParseTranscript(r io.Reader) *Transcript {
	t := &Transcript{}
	t.scan(r)
	return t
}

func (t *Transcript) scan(r io.Reader) {
	transcript.Each(r, func(e *transcript.Entry) {
		switch e.Type {
		case "user":
			if !e.IsMeta {
				t.addUser(e.Message.Content)
			}
		case "assistant":
			t.addAssistant(e.Message.ID, e.Message.Content)
		}
	})
	t.Prompts = tail(t.Prompts, keepPrompts)
	t.Results = tailResults(t.Results, keepResults)
	t.Recent = tail(t.Recent, keepRecent)
	if len(t.Assistant) > keepAssistant {
		t.Assistant = t.Assistant[len(t.Assistant)-keepAssistant:]
	}
}

func (t *Transcript) addUser(raw json.RawMessage) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		t.addPrompt(transcript.CleanPrompt(s))
		return
	}
	blocks, ok := transcript.Blocks(raw)
	if !ok {
		return
	}
	for _, b := range blocks {
		if b.Type == "tool_result" {
			res := ToolResult{ToolUseID: b.ToolUseID, Text: resultText(b.Content), IsError: b.IsError}
			t.Results = append(t.Results, res)
			label := "Tool result: "
			if res.IsError {
				label = "Tool error: "
			}
			t.Recent = append(t.Recent, label+clip(res.Text, recentClip))
		}
	}
	t.addPrompt(transcript.BlocksPrompt(blocks))
}

func (t *Transcript) addPrompt(p string) {
	if p != "" {
		t.Prompts = append(t.Prompts, p)
		t.Recent = append(t.Recent, "User: "+clip(p, recentClip))
	}
}

func (t *Transcript) addAssistant(id string, raw json.RawMessage) {
	blocks, ok := transcript.Blocks(raw)
	if !ok {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return
		}
		blocks = []transcript.Block{{Type: "text", Text: s}}
	}
	var m *AssistantMessage
	if n := len(t.Assistant); n > 0 && id != "" && t.Assistant[n-1].ID == id {
		m = &t.Assistant[n-1]
	} else {
		t.Assistant = append(t.Assistant, AssistantMessage{ID: id})
		m = &t.Assistant[len(t.Assistant)-1]
	}
	for _, b := range blocks {
		switch b.Type {
		case "text":
			if s := strings.TrimSpace(b.Text); s != "" {
				if m.Text != "" {
					m.Text += "\n"
				}
				m.Text += s
				t.Recent = append(t.Recent, "Assistant: "+clip(s, recentClip))
			}
		case "tool_use":
			tc := ToolCall{ID: b.ID, Name: b.Name, Input: string(b.Input)}
			m.Tools = append(m.Tools, tc)
			t.Recent = append(t.Recent, "Tool call: "+b.Name+" "+clip(tc.Input, recentClip))
		}
	}
}

// AssistantTexts returns the text of the last n assistant messages that
// have text, oldest first.
func (t *Transcript) AssistantTexts(n int) []string {
	var out []string
	for i := len(t.Assistant) - 1; i >= 0 && len(out) < n; i-- {
		if t.Assistant[i].Text != "" {
			out = append([]string{t.Assistant[i].Text}, out...)
		}
	}
	return out
}

// LastAssistantText is the text of the last assistant message with text.
func (t *Transcript) LastAssistantText() string {
	if xs := t.AssistantTexts(1); len(xs) > 0 {
		return xs[0]
	}
	return ""
}

// LastPrompts returns the last n user prompts, oldest first.
func (t *Transcript) LastPrompts(n int) []string { return tail(t.Prompts, n) }

func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	blocks, ok := transcript.Blocks(raw)
	if !ok {
		return string(raw)
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func tail(xs []string, n int) []string {
	if len(xs) > n {
		return xs[len(xs)-n:]
	}
	return xs
}

func tailResults(xs []ToolResult, n int) []ToolResult {
	if len(xs) > n {
		return xs[len(xs)-n:]
	}
	return xs
}
