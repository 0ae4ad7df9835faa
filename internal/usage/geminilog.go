package usage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Gemini CLI chats (~/.gemini/tmp/<project>/chats/session-*.jsonl): a
// header line {sessionId, projectHash, startTime, …}, one line per message
// {id, timestamp, type: "user"|"gemini", tokens, model, …}, and {"$set":
// {…}} patch lines (a "messages" patch lists messages again). A message is
// written again as it grows (its tool calls, their results), under the same
// id: the last one written is the message. tokens is {input (cached ones
// included), output, cached, thoughts, tool, total}; thoughts and tool-use
// prompt tokens are billed as output and input. Older releases wrote the
// whole chat as one JSON object with a messages array.

type geminiTokens struct {
	Input    int64 `json:"input"`
	Output   int64 `json:"output"`
	Cached   int64 `json:"cached"`
	Thoughts int64 `json:"thoughts"`
	Tool     int64 `json:"tool"`
}

type geminiMessage struct {
	ID        string        `json:"id"`
	Timestamp string        `json:"timestamp"`
	Type      string        `json:"type"`
	Model     string        `json:"model"`
	Tokens    *geminiTokens `json:"tokens"`
}

type geminiLine struct {
	geminiMessage
	SessionID string `json:"sessionId"`
	Set       *struct {
		Messages []geminiMessage `json:"messages"`
	} `json:"$set"`
	Messages []geminiMessage `json:"messages"` // the older one-object form
}

func readGemini(path string, r io.Reader) (harnessSession, []harnessEntry, error) {
	s := harnessSession{project: geminiProject(path)}
	var es []harnessEntry
	at := map[string]int{}
	add := func(m geminiMessage) {
		if m.Type != "gemini" || m.Tokens == nil {
			return
		}
		t := m.Tokens
		e := harnessEntry{ts: parseTS(m.Timestamp), model: m.Model,
			in: nonNeg(t.Input - t.Cached + t.Tool), cacheRead: nonNeg(t.Cached), out: nonNeg(t.Output + t.Thoughts)}
		if m.ID != "" {
			e.key = "gemini:" + m.ID
			if i, ok := at[e.key]; ok {
				es[i] = e
				return
			}
			at[e.key] = len(es)
		}
		es = append(es, e)
	}
	err := lines(r, func(line []byte) {
		if !bytes.Contains(line, []byte(`"tokens"`)) && !bytes.Contains(line, []byte(`"sessionId"`)) {
			return
		}
		var l geminiLine
		if json.Unmarshal(line, &l) != nil {
			return // a torn last line: not usage
		}
		if s.session == "" && l.SessionID != "" {
			s.session = l.SessionID
		}
		if l.Set != nil {
			for _, m := range l.Set.Messages {
				add(m)
			}
		}
		for _, m := range l.Messages {
			add(m)
		}
		add(l.geminiMessage)
	})
	if err != nil {
		return s, nil, fmt.Errorf("read Gemini chat %s: %w", path, err)
	}
	if s.session == "" {
		s.session = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".jsonl"), ".json")
	}
	return s, es, nil
}

// geminiProject is the directory a chat's project is: Gemini writes it to
// <project>/.project_root; else the project's short name.
func geminiProject(path string) string {
	dir := filepath.Dir(filepath.Dir(path)) // <tmp>/<project>
	if b, err := os.ReadFile(filepath.Join(dir, ".project_root")); err == nil {
		if p := strings.TrimSpace(string(b)); p != "" {
			return p
		}
	}
	return filepath.Base(dir)
}
