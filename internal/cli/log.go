package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/harness"
	"github.com/warden-dev/warden/internal/store"
)

type logOptions struct {
	session string
	event   string
	harness string
	since   string
	limit   int
	json    bool
	follow  bool
}

func newLogCmd() *cobra.Command {
	var o logOptions
	cmd := &cobra.Command{
		Use:   "log [--session ID] [--event E] [--harness H] [--since D] [--json] [-f]",
		Short: "Show recorded hook events and decisions",
		Long: `Show the events warden recorded, oldest first: time, session, event, tool,
decision, rule and reason. --since takes a duration (90m, 24h, 7d) or a date
(2026-11-22 or RFC 3339). -f keeps printing new events until interrupted.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runLog(cmd, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.session, "session", "", "only this session id")
	f.StringVar(&o.event, "event", "", "only this event name (e.g. PreToolUse)")
	f.StringVar(&o.harness, "harness", "", "only events of this agent CLI: claude, codex, gemini or copilot")
	f.StringVar(&o.since, "since", "", "only events since a duration ago (24h, 7d) or a date")
	f.IntVarP(&o.limit, "limit", "n", 50, "show at most the newest N events (0 = all)")
	f.BoolVar(&o.json, "json", false, "one JSON object per line")
	f.BoolVarP(&o.follow, "follow", "f", false, "keep printing new events")
	return cmd
}

func runLog(cmd *cobra.Command, o logOptions) error {
	filter := store.Filter{SessionID: o.session, Event: o.event, Limit: o.limit}
	if o.harness != "" {
		h, err := harness.Parse(o.harness)
		if err != nil {
			return err
		}
		filter.Harness = string(h)
	}
	if o.since != "" {
		t, err := parseSince(o.since, time.Now())
		if err != nil {
			return err
		}
		filter.Since = t
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	st, err := openExistingStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()

	out := cmd.OutOrStdout()
	evs, err := st.Events(ctx, filter)
	if err != nil {
		return err
	}
	printEvents(out, evs, o.json, true)
	if !o.follow {
		if len(evs) == 0 && !o.json {
			fmt.Fprintln(cmd.ErrOrStderr(), "no events match")
		}
		return nil
	}
	var last int64
	if len(evs) > 0 {
		last = evs[len(evs)-1].ID
	}
	filter.Limit = 0
	tick := time.NewTicker(300 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		filter.AfterID = last
		evs, err := st.Events(ctx, filter)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if len(evs) > 0 {
			printEvents(out, evs, o.json, false)
			last = evs[len(evs)-1].ID
		}
	}
}

func printEvents(w io.Writer, evs []store.Event, asJSON, header bool) {
	if asJSON {
		enc := json.NewEncoder(w)
		for _, e := range evs {
			enc.Encode(e)
		}
		return
	}
	if len(evs) == 0 {
		return
	}
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	if header {
		fmt.Fprintln(tw, "TIME\tSESSION\tEVENT\tTOOL\tDETAIL\tDECISION\tRULE\tREASON")
	}
	for _, e := range evs {
		reason := e.Reason
		if e.Error != "" {
			reason = "error: " + e.Error
		}
		name := e.Event
		if e.Harness != "" && e.Harness != string(harness.Claude) {
			name += " (" + e.Harness + ")" // another CLI's event, in Claude Code's name
		}
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s",
			e.Time.Local().Format("01-02 15:04:05"), short(e.SessionID, 8), name, e.Tool,
			eventDetail(e), e.Decision, e.Rule, oneLine(reason))
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	writeClipped(w, buf.String())
}

// parseSince accepts a duration back from now (with a d suffix for days) or
// a date.
func parseSince(s string, now time.Time) (time.Time, error) {
	if strings.HasSuffix(s, "d") {
		var n int
		if _, err := fmt.Sscanf(s, "%dd", &n); err == nil && n >= 0 {
			return now.Add(-time.Duration(n) * 24 * time.Hour), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--since %q: use a duration like 90m, 24h or 7d, or a date like 2026-11-22", s)
}

func short(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
