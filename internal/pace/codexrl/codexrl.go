// Package codexrl reads the rate limits Codex CLI records in its rollout
// ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl): every event_msg
// token_count carries rate_limits {primary, secondary: {used_percent,
// window_minutes, resets_at (epoch seconds)}}, the values of the API's
// x-codex-primary-* and x-codex-secondary-* headers, verbatim. The newest
// such line is the account's standing; pacing reads it as a usage
// snapshot with source "codex".
package codexrl

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
)

// The windows pacing knows: 5 hours and 7 days. A Codex window of another
// length is not paced (its allowance would be computed for the wrong
// window).
const (
	fiveHourMinutes = 300
	sevenDayMinutes = 7 * 24 * 60
)

type window struct {
	UsedPercent   *float64 `json:"used_percent"`
	WindowMinutes *float64 `json:"window_minutes"`
	ResetsAt      *float64 `json:"resets_at"`
	// Older releases: seconds from the line's time.
	ResetsIn *float64 `json:"resets_in_seconds"`
}

type line struct {
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Payload   struct {
		Type       string `json:"type"`
		RateLimits *struct {
			Primary   *window `json:"primary"`
			Secondary *window `json:"secondary"`
		} `json:"rate_limits"`
	} `json:"payload"`
}

// Limits is what one rollout line says.
type Limits struct {
	Snapshot quota.Snapshot // Time: the line's; Source: quota.SourceCodex
	// Ignored lists windows pacing cannot use: of a length it does not
	// know ("1h0m0s"), or resetting further off than their length.
	Ignored []string
}

// tailSizes are how much of a rollout's end is read, in turn, looking for
// its newest rate limits: a turn's lines (tool output, reasoning) can be
// long.
var tailSizes = []int64{64 << 10, 1 << 20, 8 << 20}

// Latest returns the rate limits of the rollout's newest token_count
// event; nil when it has none (no reply yet, or a provider that sends no
// x-codex-* headers: Codex then records null). Only the newest event
// counts, so a rollout without figures costs a read of its last turn, not
// of the whole file.
func Latest(path string) (*Limits, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	for _, n := range tailSizes {
		from := max(fi.Size()-n, 0)
		buf := make([]byte, fi.Size()-from)
		if _, err := f.ReadAt(buf, from); err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if from > 0 { // the first line is cut: skip it
			if i := bytes.IndexByte(buf, '\n'); i >= 0 {
				buf = buf[i+1:]
			} else {
				buf = nil
			}
		}
		if l, found := newestTokenCount(buf); found {
			return l, nil
		}
		if from == 0 {
			break
		}
	}
	return nil, nil
}

// newestTokenCount scans the lines of buf from the end for the newest
// token_count event (found) and returns its limits.
func newestTokenCount(buf []byte) (l *Limits, found bool) {
	for len(buf) > 0 {
		i := bytes.LastIndexByte(bytes.TrimRight(buf, "\n"), '\n')
		ln := buf[i+1:]
		buf = buf[:max(i, 0)]
		if !bytes.Contains(ln, []byte(`"token_count"`)) || !bytes.Contains(ln, []byte(`"event_msg"`)) {
			continue
		}
		var probe struct {
			Type    string `json:"type"`
			Payload struct {
				Type string `json:"type"`
			} `json:"payload"`
		}
		if json.Unmarshal(bytes.TrimSpace(ln), &probe) != nil || probe.Type != "event_msg" || probe.Payload.Type != "token_count" {
			continue // a torn line, or the words inside some text
		}
		return Parse(ln), true
	}
	return nil, false
}

// Parse reads one rollout line; nil when it carries no usable rate limits.
func Parse(b []byte) *Limits {
	var l line
	if json.Unmarshal(bytes.TrimSpace(b), &l) != nil || l.Type != "event_msg" || l.Payload.RateLimits == nil {
		return nil
	}
	ts, err := time.Parse(time.RFC3339Nano, l.Timestamp)
	if err != nil {
		return nil
	}
	out := &Limits{Snapshot: quota.Snapshot{Time: ts.UTC(), Source: quota.SourceCodex}}
	rl := l.Payload.RateLimits
	for i, w := range []*window{rl.Primary, rl.Secondary} {
		if w == nil || w.UsedPercent == nil || math.IsNaN(*w.UsedPercent) || *w.UsedPercent < 0 {
			continue
		}
		qw := quota.Window{Util: ptr(*w.UsedPercent)}
		switch {
		case w.ResetsAt != nil && *w.ResetsAt > 0:
			t := time.Unix(int64(*w.ResetsAt), 0).UTC()
			qw.ResetsAt = &t
		case w.ResetsIn != nil && *w.ResetsIn >= 0:
			t := ts.Add(time.Duration(*w.ResetsIn) * time.Second).UTC()
			qw.ResetsAt = &t
		}
		minutes := 0.0
		if w.WindowMinutes != nil {
			minutes = *w.WindowMinutes
		} else if i == 0 { // unnamed: Codex's primary is its 5-hour window
			minutes = fiveHourMinutes
		} else {
			minutes = sevenDayMinutes
		}
		if length := time.Duration(minutes) * time.Minute; qw.ResetsAt != nil && qw.ResetsAt.Sub(ts) > length+5*time.Minute {
			// A reset further off than the window is long: not figures
			// pacing can use (its allowance would be far behind and the
			// delay the largest).
			out.Ignored = append(out.Ignored, length.String()+" window resetting at "+qw.ResetsAt.Format(time.RFC3339)+", beyond its length")
			continue
		}
		switch minutes {
		case fiveHourMinutes:
			out.Snapshot.FiveHour = qw
		case sevenDayMinutes:
			out.Snapshot.SevenDay = qw
		default:
			out.Ignored = append(out.Ignored, (time.Duration(minutes) * time.Minute).String())
		}
	}
	if out.Snapshot.FiveHour.Util == nil && out.Snapshot.SevenDay.Util == nil && len(out.Ignored) == 0 {
		return nil
	}
	return out
}

func ptr(f float64) *float64 { return &f }

// Home is Codex's directory: $CODEX_HOME, else ~/.codex (getenv nil =
// os.Getenv).
func Home(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := getenv("CODEX_HOME"); d != "" {
		return d
	}
	h := getenv("HOME")
	if h == "" {
		h, _ = os.UserHomeDir()
	}
	return filepath.Join(h, ".codex")
}

// Newest is the most recently written rollout under home/sessions ("" when
// there is none): the dated directories are walked newest first, so only
// the last day's files are looked at.
func Newest(home string) (string, error) {
	dir := filepath.Join(home, "sessions")
	for depth := 0; depth < 3; depth++ { // YYYY/MM/DD
		ents, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil
		}
		if err != nil {
			return "", err
		}
		var dirs []string
		for _, e := range ents {
			if e.IsDir() {
				dirs = append(dirs, e.Name())
			}
		}
		if len(dirs) == 0 {
			return "", nil
		}
		sort.Strings(dirs)
		dir = filepath.Join(dir, dirs[len(dirs)-1])
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	best, bestT := "", time.Time{}
	for _, e := range ents {
		if e.IsDir() || filepath.Ext(e.Name()) != ".jsonl" {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		if best == "" || fi.ModTime().After(bestT) {
			best, bestT = filepath.Join(dir, e.Name()), fi.ModTime()
		}
	}
	return best, nil
}
