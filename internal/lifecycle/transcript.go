package lifecycle

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
)

// Todo is one item of a TodoWrite call.
type Todo struct {
	Content string `json:"content"`
	Status  string `json:"status"`
}

// Digest is what a session handoff takes from a transcript.
type Digest struct {
	// FirstPrompt is the session's first user prompt: its goal.
	FirstPrompt string
	// Prompts are the last user prompts, oldest first.
	Prompts []string
	// Todos are the items of the last TodoWrite call.
	Todos []Todo
	// LastAssistant is the text of the last assistant message.
	LastAssistant string
}

// transcript bounds: a transcript can be hundreds of megabytes; the head
// holds the goal and the tail the recent state.
const (
	headBytes   = 1 << 20
	tailBytes   = 8 << 20
	keepPrompts = 5
)

type tLine struct {
	Type        string `json:"type"`
	IsMeta      bool   `json:"isMeta"`
	IsSidechain bool   `json:"isSidechain"`
	Message     struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

type tBlock struct {
	Type  string          `json:"type"`
	Text  string          `json:"text"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// ReadDigest reads a Claude Code transcript (JSONL, claude-code-hooks.md
// §5). Unknown entry types and malformed lines are skipped.
func ReadDigest(path string) (Digest, error) {
	var d Digest
	f, err := os.Open(path)
	if err != nil {
		return d, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return d, err
	}
	size := fi.Size()
	if size <= headBytes+tailBytes {
		scanDigest(f, &d, true)
		return d, nil
	}
	scanDigest(io.LimitReader(f, headBytes), &d, true)
	first := d.FirstPrompt
	d = Digest{FirstPrompt: first}
	if _, err := f.Seek(size-tailBytes, io.SeekStart); err != nil {
		return d, err
	}
	br := bufio.NewReader(f)
	br.ReadString('\n') // drop the partial first line
	scanDigest(br, &d, first == "")
	if d.FirstPrompt == "" {
		d.FirstPrompt = first
	}
	return d, nil
}

func scanDigest(r io.Reader, d *Digest, wantFirst bool) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 32<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var l tLine
		if json.Unmarshal(line, &l) != nil || l.IsSidechain {
			continue
		}
		switch l.Type {
		case "user":
			if l.IsMeta {
				continue
			}
			p := promptText(l.Message.Content)
			if p == "" {
				continue
			}
			if wantFirst && d.FirstPrompt == "" {
				d.FirstPrompt = p
			}
			d.Prompts = append(d.Prompts, p)
			if len(d.Prompts) > keepPrompts {
				d.Prompts = d.Prompts[len(d.Prompts)-keepPrompts:]
			}
		case "assistant":
			var blocks []tBlock
			if json.Unmarshal(l.Message.Content, &blocks) != nil {
				continue
			}
			var text []string
			for _, b := range blocks {
				switch b.Type {
				case "text":
					if t := strings.TrimSpace(b.Text); t != "" {
						text = append(text, t)
					}
				case "tool_use":
					if b.Name == "TodoWrite" {
						var in struct {
							Todos []Todo `json:"todos"`
						}
						if json.Unmarshal(b.Input, &in) == nil {
							d.Todos = in.Todos
						}
					}
				}
			}
			if len(text) > 0 {
				d.LastAssistant = strings.Join(text, "\n")
			}
		}
	}
}

// promptText is the text a user typed: a string, or the text blocks of a
// content array (tool results are not prompts). Command wrappers and
// system-injected text (which start with "<") are skipped.
func promptText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return cleanPrompt(s)
	}
	var blocks []tBlock
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			if t := cleanPrompt(b.Text); t != "" {
				parts = append(parts, t)
			}
		}
	}
	return strings.Join(parts, "\n")
}

func cleanPrompt(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasPrefix(s, "<") || strings.HasPrefix(s, "Caveat:") {
		return ""
	}
	return s
}
