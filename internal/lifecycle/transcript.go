package lifecycle

import (
	"encoding/json"
	"io"
	"os"
	"strings"

	"github.com/warden-dev/warden/internal/transcript"
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
	r, err := transcript.From(f, size-tailBytes)
	if err != nil {
		return d, err
	}
	scanDigest(r, &d, first == "")
	if d.FirstPrompt == "" {
		d.FirstPrompt = first
	}
	return d, nil
}

func scanDigest(r io.Reader, d *Digest, wantFirst bool) {
	transcript.Each(r, func(l *transcript.Entry) {
		switch l.Type {
		case "user":
			if l.IsMeta {
				return
			}
			p := transcript.Prompt(l.Message.Content)
			if p == "" {
				return
			}
			if wantFirst && d.FirstPrompt == "" {
				d.FirstPrompt = p
			}
			d.Prompts = append(d.Prompts, p)
			if len(d.Prompts) > keepPrompts {
				d.Prompts = d.Prompts[len(d.Prompts)-keepPrompts:]
			}
		case "assistant":
			blocks, ok := transcript.Blocks(l.Message.Content)
			if !ok {
				return
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
	})
}
