package dashboard

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/task"
)

// funcs are the template helpers: formatting only, no data access.
var funcs = template.FuncMap{
	"clock":     func(t time.Time) string { return t.Local().Format("15:04:05") },
	"stamp":     stamp,
	"iso":       func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"ago":       ago,
	"until":     until,
	"short":     short,
	"usd":       func(f float64) string { return fmt.Sprintf("$%.2f", f) },
	"usd4":      func(f float64) string { return fmt.Sprintf("$%.4f", f) },
	"num":       num,
	"pct":       func(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) + "%" },
	"facts":     facts,
	"value":     func(v any) string { return config.FormatValue(v) },
	"chart":     windowSVG,
	"costbar":   costBars,
	"joinm":     func(ms []string) string { return strings.Join(ms, ", ") },
	"decisions": decisionNames,
	"clipText":  clipText,
	// agentKinds are the agents a task can name (the add form's choice).
	"agentKinds": func() []string { return task.AgentKinds },
}

// clipText keeps a card short: at most n runes, "…" when cut.
func clipText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.Local().Format("2006-01-02 15:04:05")
}

func ago(now, t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return human(now.Sub(t)) + " ago"
}

func until(now time.Time, t *time.Time) string {
	if t == nil {
		return "—"
	}
	return "in " + human(t.Sub(now))
}

// human is a duration in at most two units (3d 4h, 2h 5m, 40s).
func human(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	d = d.Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh %dm", int(d.Hours()), int(d.Minutes())%60)
	default:
		return fmt.Sprintf("%dd %dh", int(d.Hours())/24, int(d.Hours())%24)
	}
}

// short is the first 8 characters of an id.
func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

func num(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// fact is one line of an event's expanded row.
type fact struct{ K, V string }

// facts lists an event's non-empty fields, in the order app.js uses for
// rows that arrive live.
func facts(e store.Event) []fact {
	out := []fact{{"id", strconv.FormatInt(e.ID, 10)}, {"time", e.Time.UTC().Format(time.RFC3339Nano)}}
	add := func(k, v string) {
		if v != "" {
			out = append(out, fact{k, v})
		}
	}
	add("session", e.SessionID)
	add("event", e.Event)
	add("harness", e.Harness)
	add("tool", e.Tool)
	add("tool_use_id", e.ToolUseID)
	add("agent", e.AgentID)
	add("cwd", e.Cwd)
	add("path", e.Path)
	add("decision", e.Decision)
	add("rule", e.Rule)
	add("mode", e.Mode)
	add("error", e.Error)
	out = append(out, fact{"latency", fmt.Sprintf("%.1f ms", float64(e.LatencyUS)/1000)})
	if e.SleptMS > 0 {
		out = append(out, fact{"slept", fmt.Sprintf("%d ms", e.SleptMS)})
	}
	if e.DurationMS != nil {
		out = append(out, fact{"tool duration", fmt.Sprintf("%d ms", *e.DurationMS)})
	}
	return out
}

// decisionNames are the decisions in precedence order, for the filter.
func decisionNames() []string { return []string{"allow", "audit", "warn", "ask", "deny"} }
