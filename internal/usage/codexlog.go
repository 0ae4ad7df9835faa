package usage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// Codex CLI rollouts ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl):
// one {timestamp, type, payload} per line. session_meta names the session
// and its directory, turn_context the model of the turns after it, and each
// API response's usage is a token_usage_record (with its response_id).
// Older rollouts have only event_msg token_count events: their running
// total_token_usage is counted by difference (Codex repeats an event
// without new usage), else their last_token_usage.

type codexUsage struct {
	Input      int64 `json:"input_tokens"`
	Cached     int64 `json:"cached_input_tokens"`
	CacheWrite int64 `json:"cache_write_input_tokens"`
	Output     int64 `json:"output_tokens"`
	Total      int64 `json:"total_tokens"`
}

func (u codexUsage) sub(v codexUsage) codexUsage {
	return codexUsage{Input: u.Input - v.Input, Cached: u.Cached - v.Cached, CacheWrite: u.CacheWrite - v.CacheWrite,
		Output: u.Output - v.Output, Total: u.Total - v.Total}
}

// entry: Codex's input_tokens include the cached (and cache-written) ones.
func (u codexUsage) entry() harnessEntry {
	return harnessEntry{in: nonNeg(u.Input - u.Cached - u.CacheWrite), cacheRead: nonNeg(u.Cached),
		cacheW: nonNeg(u.CacheWrite), out: nonNeg(u.Output)}
}

type codexLine struct {
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Payload   struct {
		Type       string      `json:"type"`
		ID         string      `json:"id"`
		Cwd        string      `json:"cwd"`
		Model      string      `json:"model"`
		ResponseID string      `json:"response_id"`
		Usage      *codexUsage `json:"usage"`
		Info       *struct {
			Total *codexUsage `json:"total_token_usage"`
			Last  *codexUsage `json:"last_token_usage"`
		} `json:"info"`
	} `json:"payload"`
}

var codexWanted = [][]byte{[]byte(`"session_meta"`), []byte(`"turn_context"`), []byte(`"token_usage_record"`), []byte(`"token_count"`)}

func readCodex(path string, r io.Reader) (harnessSession, []harnessEntry, error) {
	var (
		s              harnessSession
		model          string
		records, count []harnessEntry
		prevTotal      *codexUsage
	)
	err := lines(r, func(line []byte) {
		want := false
		for _, w := range codexWanted {
			if bytes.Contains(line, w) {
				want = true
				break
			}
		}
		if !want {
			return
		}
		var l codexLine
		if json.Unmarshal(line, &l) != nil {
			return // a torn last line, or not Codex's: not usage
		}
		p := &l.Payload
		switch {
		case l.Type == "session_meta":
			if s.session == "" {
				s.session, s.project = p.ID, p.Cwd
			}
		case l.Type == "turn_context":
			if p.Model != "" {
				model = p.Model
			}
		case l.Type == "token_usage_record" && p.Usage != nil:
			e := p.Usage.entry()
			e.ts, e.model = parseTS(l.Timestamp), model
			if p.ResponseID != "" {
				e.key = "codex:" + p.ResponseID
			}
			records = append(records, e)
		case l.Type == "event_msg" && p.Type == "token_count" && p.Info != nil:
			var u codexUsage
			switch {
			case p.Info.Total != nil:
				if prevTotal != nil {
					if *p.Info.Total == *prevTotal {
						return // repeated, nothing new
					}
					u = p.Info.Total.sub(*prevTotal)
				} else {
					u = *p.Info.Total
				}
				t := *p.Info.Total
				prevTotal = &t
			case p.Info.Last != nil:
				u = *p.Info.Last
			default:
				return
			}
			e := u.entry()
			e.ts, e.model = parseTS(l.Timestamp), model
			count = append(count, e)
		}
	})
	if err != nil {
		return s, nil, fmt.Errorf("read Codex rollout %s: %w", path, err)
	}
	if s.session == "" {
		s.session = codexSessionFromName(path)
	}
	// Per-response records when the rollout has them: token_count events
	// then describe the same responses again.
	if len(records) > 0 {
		return s, records, nil
	}
	return s, count, nil
}

// codexSessionFromName: rollout-<time>-<uuid>.jsonl → uuid.
func codexSessionFromName(path string) string {
	stem := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	if len(stem) > 36 {
		return stem[len(stem)-36:]
	}
	return stem
}
