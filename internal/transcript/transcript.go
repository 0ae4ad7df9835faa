// Package transcript reads the lines of a Claude Code transcript (JSONL,
// claude-code-hooks.md §5) the way every reader in warden does: blank,
// malformed or partial lines and subagent (sidechain) entries are skipped,
// a large file is read from a whole line near its end, and what a user
// typed is told apart from command wrappers and system text.
//
// What is taken from the entries is each reader's own: internal/judge
// keeps messages, tool calls and results; internal/lifecycle the goal,
// todos and last text for handoffs.
package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

// Entry is one transcript line.
type Entry struct {
	Type        string `json:"type"`
	IsMeta      bool   `json:"isMeta"`
	IsSidechain bool   `json:"isSidechain"`
	Message     struct {
		ID      string          `json:"id"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// Block is one element of a message's content array.
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

// Each calls fn with every entry of the main conversation in r, in order:
// blank lines, lines that are not a JSON entry (garbage, a partial last
// line) and subagent entries are skipped.
func Each(r io.Reader, fn func(*Entry)) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 32<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var e Entry
		if json.Unmarshal(line, &e) != nil || e.IsSidechain {
			continue
		}
		fn(&e)
	}
}

// From seeks r to off and returns a reader from there that starts after
// the (partial) line off falls in.
func From(r io.ReadSeeker, off int64) (io.Reader, error) {
	if _, err := r.Seek(off, io.SeekStart); err != nil {
		return nil, err
	}
	br := bufio.NewReader(r)
	br.ReadString('\n') // drop the partial first line
	return br, nil
}

// Blocks decodes a content array; ok is false when raw is not one.
func Blocks(raw json.RawMessage) (blocks []Block, ok bool) {
	return blocks, json.Unmarshal(raw, &blocks) == nil
}

// Prompt is the text a user typed in a user entry's content: a string, or
// the text blocks of a content array (tool results are not prompts); ""
// when there is none.
func Prompt(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return CleanPrompt(s)
	}
	blocks, ok := Blocks(raw)
	if !ok {
		return ""
	}
	return BlocksPrompt(blocks)
}

// BlocksPrompt is Prompt of a content array already decoded.
func BlocksPrompt(blocks []Block) string {
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			if t := CleanPrompt(b.Text); t != "" {
				parts = append(parts, t)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// CleanPrompt is s trimmed, or "" when it is not something a user typed:
// command wrappers and system-injected text (which start with "<") and the
// local-command caveat.
func CleanPrompt(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasPrefix(s, "<") || strings.HasPrefix(s, "Caveat:") {
		return ""
	}
	return s
}
