package usage

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// column of a text table; prio 0 is never dropped, higher numbers go first
// when the table is wider than the terminal.
type column struct {
	title string
	right bool
	prio  int
}

// renderTable lays out rows (a nil row is a separator) so the table fits
// width (0 = unlimited), dropping the highest-priority-number columns
// first, then cutting the widest text column.
func renderTable(cols []column, rows [][]string, width int) string {
	keep := make([]bool, len(cols))
	for i, c := range cols {
		keep[i] = c.prio >= 0 // a negative priority hides the column
	}
	widths := func() []int {
		w := make([]int, len(cols))
		for i, c := range cols {
			w[i] = utf8.RuneCountInString(c.title)
		}
		for _, r := range rows {
			for i, s := range r {
				if n := utf8.RuneCountInString(s); n > w[i] {
					w[i] = n
				}
			}
		}
		return w
	}
	w := widths()
	total := func() int {
		t := 0
		n := 0
		for i := range cols {
			if keep[i] {
				t += w[i]
				n++
			}
		}
		return t + 3*(n-1) + 4
	}
	for width > 0 && total() > width {
		drop, best := -1, 0
		for i, c := range cols {
			if keep[i] && c.prio > best {
				drop, best = i, c.prio
			}
		}
		if drop < 0 {
			break
		}
		keep[drop] = false
	}
	if width > 0 && total() > width { // cut the widest left-aligned column
		wi := -1
		for i, c := range cols {
			if keep[i] && !c.right && (wi < 0 || w[i] > w[wi]) {
				wi = i
			}
		}
		if wi >= 0 {
			w[wi] -= total() - width
			if w[wi] < 4 {
				w[wi] = 4
			}
		}
	}
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString("│ ")
		first := true
		for i, c := range cols {
			if !keep[i] {
				continue
			}
			if !first {
				b.WriteString(" │ ")
			}
			first = false
			s := cells[i]
			n := utf8.RuneCountInString(s)
			if n > w[i] {
				r := []rune(s)
				s = string(r[:w[i]-1]) + "…"
				n = w[i]
			}
			pad := strings.Repeat(" ", w[i]-n)
			if c.right {
				b.WriteString(pad + s)
			} else {
				b.WriteString(s + pad)
			}
		}
		b.WriteString(" │\n")
	}
	rule := func(l, m, r string) {
		b.WriteString(l)
		first := true
		for i := range cols {
			if !keep[i] {
				continue
			}
			if !first {
				b.WriteString(m)
			}
			first = false
			b.WriteString(strings.Repeat("─", w[i]+2))
		}
		b.WriteString(r + "\n")
	}
	titles := make([]string, len(cols))
	for i, c := range cols {
		titles[i] = c.title
	}
	rule("┌", "┬", "┐")
	line(titles)
	rule("├", "┼", "┤")
	for _, r := range rows {
		if r == nil {
			rule("├", "┼", "┤")
			continue
		}
		line(r)
	}
	rule("└", "┴", "┘")
	return b.String()
}

func num(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return "-" + num(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func usd(f float64) string { return fmt.Sprintf("$%.2f", f) }

func shortModel(m string) string {
	m = strings.TrimPrefix(m, "claude-")
	// drop a trailing -YYYYMMDD
	if i := strings.LastIndexByte(m, '-'); i > 0 && len(m)-i == 9 {
		if _, err := strconv.Atoi(m[i+1:]); err == nil {
			m = m[:i]
		}
	}
	return m
}

func shortModels(ms []string) string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = shortModel(m)
	}
	return strings.Join(out, ", ")
}

var tokenCols = []column{
	{title: "Input", right: true, prio: 3},
	{title: "Output", right: true},
	{title: "Cache Create", right: true, prio: 5},
	{title: "Cache Read", right: true, prio: 4},
	{title: "Total Tokens", right: true},
	{title: "Cost (USD)", right: true},
}

func tokenCells(in, out, cc, cr, total int64, cost float64) []string {
	return []string{num(in), num(out), num(cc), num(cr), num(total), usd(cost)}
}

func breakdownRows(bs []ModelBreakdown, lead int) [][]string {
	var rows [][]string
	for _, m := range bs {
		r := make([]string, lead)
		r[0] = "  └ " + shortModel(m.ModelName)
		r = append(r, tokenCells(m.InputTokens, m.OutputTokens, m.CacheCreationTokens, m.CacheReadTokens,
			m.InputTokens+m.OutputTokens+m.CacheCreationTokens+m.CacheReadTokens, m.Cost)...)
		rows = append(rows, r)
	}
	return rows
}

// PeriodTable renders a daily, weekly or monthly report.
func PeriodTable(kind string, rows []PeriodRow, t Totals, breakdown bool, width int) string {
	title := map[string]string{Daily: "Date", Weekly: "Week", Monthly: "Month"}[kind]
	cols := append([]column{{title: title}, {title: "Models", prio: 6}}, tokenCols...)
	var out [][]string
	for _, r := range rows {
		out = append(out, append([]string{r.Period, shortModels(r.ModelsUsed)},
			tokenCells(r.InputTokens, r.OutputTokens, r.CacheCreationTokens, r.CacheReadTokens, r.TotalTokens, r.TotalCost)...))
		if breakdown {
			out = append(out, breakdownRows(r.ModelBreakdowns, 2)...)
		}
	}
	out = append(out, nil, append([]string{"Total", ""}, tokenCells(t.InputTokens, t.OutputTokens, t.CacheCreationTokens, t.CacheReadTokens, t.TotalTokens, t.TotalCost)...))
	if len(rows) == 0 {
		return "No usage found.\n"
	}
	return renderTable(cols, out, width)
}

// SessionTable renders the session report (most expensive first).
func SessionTable(r SessionReport, breakdown bool, width int) string {
	if len(r.Sessions) == 0 {
		return "No usage found.\n"
	}
	cols := append([]column{{title: "Session"}, {title: "Project", prio: 2}, {title: "Models", prio: 6}}, tokenCols...)
	cols = append(cols, column{title: "Last Activity", prio: 1})
	var out [][]string
	for _, s := range r.Sessions {
		row := append([]string{s.SessionID, s.ProjectPath, shortModels(s.ModelsUsed)},
			tokenCells(s.InputTokens, s.OutputTokens, s.CacheCreationTokens, s.CacheReadTokens, s.TotalTokens, s.TotalCost)...)
		out = append(out, append(row, s.LastActivity[:10]))
		if breakdown {
			for _, b := range breakdownRows(s.ModelBreakdowns, 3) {
				out = append(out, append(b, ""))
			}
		}
	}
	t := r.Totals
	out = append(out, nil, append(append([]string{"Total", "", ""}, tokenCells(t.InputTokens, t.OutputTokens, t.CacheCreationTokens, t.CacheReadTokens, t.TotalTokens, t.TotalCost)...), ""))
	return renderTable(cols, out, width)
}

// BlocksTable renders the blocks report; the active block also gets its
// burn rate and projection.
func BlocksTable(r BlocksReport, width int, now time.Time) string {
	if len(r.Blocks) == 0 {
		return "No usage blocks found.\n"
	}
	cols := []column{{title: "Block Start"}, {title: "Duration/Status"}, {title: "Models", prio: 6},
		{title: "Entries", right: true, prio: 3}, {title: "Tokens", right: true}, {title: "%", right: true, prio: 2}, {title: "Cost", right: true}}
	hasLimit := false
	for _, b := range r.Blocks {
		hasLimit = hasLimit || b.TokenLimitStatus != nil
	}
	if !hasLimit {
		cols[5].prio = -1 // no --token-limit: no % column
	}
	var rows [][]string
	var tokens int64
	var cost float64
	var active *Block
	for i := range r.Blocks {
		b := &r.Blocks[i]
		start := time.UnixMilli(b.start).Local().Format("2006-01-02 15:04")
		if b.IsGap {
			rows = append(rows, []string{start, fmt.Sprintf("(%s gap)", fmtDur(b.end-b.start)), "", "", "", "", ""})
			continue
		}
		status := fmtDur(b.actualEnd - b.start)
		if b.IsActive {
			status = "ACTIVE, " + fmtDur(b.end-now.UnixMilli()) + " left"
			active = b
		}
		pct := ""
		if b.TokenLimitStatus != nil {
			pct = fmt.Sprintf("%.0f%%", float64(b.TotalTokens)/float64(b.TokenLimitStatus.Limit)*100)
		}
		rows = append(rows, []string{start, status, shortModels(b.Models), num(int64(b.Entries)), num(b.TotalTokens), pct, usd(b.CostUSD)})
		tokens += b.TotalTokens
		cost += b.CostUSD
	}
	rows = append(rows, nil, []string{"Total", "", "", "", num(tokens), "", usd(cost)})
	s := renderTable(cols, rows, width)
	if active != nil && active.BurnRate != nil {
		s += fmt.Sprintf("Active block: %s tokens/min, %s/hour", num(int64(active.BurnRate.TokensPerMinute)), usd(active.BurnRate.CostPerHour))
		if p := active.Projection; p != nil {
			s += fmt.Sprintf("; projected %s tokens, %s in %d min", num(p.TotalTokens), usd(p.TotalCost), p.RemainingMinutes)
		}
		if tl := active.TokenLimitStatus; tl != nil {
			s += fmt.Sprintf("; limit %s: %.0f%% (%s)", num(tl.Limit), tl.PercentUsed, tl.Status)
		}
		s += "\n"
	}
	return s
}

func fmtDur(ms int64) string {
	if ms < 0 {
		ms = 0
	}
	m := ms / 60000
	return fmt.Sprintf("%dh %02dm", m/60, m%60)
}
