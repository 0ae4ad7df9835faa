package usage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
)

// Copilot CLI sessions (~/.copilot/session-state/<id>/events.jsonl): one
// {type, data, id, timestamp} per line. session.start names the session
// and its directory; each API call's usage is a session.usage_record
// {usage{model, inputTokens (cached ones included), outputTokens
// (reasoning included), cacheReadTokens, cacheWriteTokens, apiCallId}}.
// Its cost field is Copilot's premium-request accounting, not dollars: the
// price table prices the tokens like the other CLIs'.

type copilotLine struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Data      struct {
		SessionID string `json:"sessionId"`
		Context   struct {
			Cwd string `json:"cwd"`
		} `json:"context"`
		Usage *struct {
			Model      string `json:"model"`
			Input      int64  `json:"inputTokens"`
			Output     int64  `json:"outputTokens"`
			CacheRead  int64  `json:"cacheReadTokens"`
			CacheWrite int64  `json:"cacheWriteTokens"`
			APICallID  string `json:"apiCallId"`
			Accounting struct {
				UsageID string `json:"usageId"`
			} `json:"accounting"`
		} `json:"usage"`
	} `json:"data"`
}

func readCopilot(path string, r io.Reader) (harnessSession, []harnessEntry, error) {
	var s harnessSession
	var es []harnessEntry
	err := lines(r, func(line []byte) {
		if !bytes.Contains(line, []byte(`"session.usage_record"`)) && !bytes.Contains(line, []byte(`"session.start"`)) {
			return
		}
		var l copilotLine
		if json.Unmarshal(line, &l) != nil {
			return // a torn last line: not usage
		}
		switch {
		case l.Type == "session.start" && s.session == "":
			s.session, s.project = l.Data.SessionID, l.Data.Context.Cwd
		case l.Type == "session.usage_record" && l.Data.Usage != nil:
			u := l.Data.Usage
			e := harnessEntry{ts: parseTS(l.Timestamp), model: u.Model,
				in: nonNeg(u.Input - u.CacheRead - u.CacheWrite), cacheRead: nonNeg(u.CacheRead), cacheW: nonNeg(u.CacheWrite),
				out: nonNeg(u.Output)}
			switch {
			case u.APICallID != "":
				e.key = "copilot:" + u.APICallID
			case u.Accounting.UsageID != "":
				e.key = "copilot:" + u.Accounting.UsageID
			case l.ID != "":
				e.key = "copilot-event:" + l.ID
			}
			es = append(es, e)
		}
	})
	if err != nil {
		return s, nil, fmt.Errorf("read Copilot events %s: %w", path, err)
	}
	if s.session == "" {
		s.session = filepath.Base(filepath.Dir(path))
	}
	// A call id is the provider's response id, which a local provider may
	// repeat: it names a response within its session only.
	for i := range es {
		if es[i].key != "" {
			es[i].key = s.session + "/" + es[i].key
		}
	}
	return s, es, nil
}
