package dashboard

import (
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"math"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/usage"
)

// Charts are SVG written here, server-side: no chart library, no script,
// readable without JavaScript, and each carries its series as data-series
// JSON so a test can compare the drawing with the pacing figures.

const (
	chartW, chartH      = 640.0, 240.0
	plotL, plotR        = 44.0, 628.0
	plotTop, plotBottom = 14.0, 206.0
	chartLabelY         = 226.0
	colourAllowance     = "#1d4ed8"
	colourSafe          = "#047857"
	colourUsage         = "#b45309"
	colourWeekend       = "#e5e7eb"
	colourGrid          = "#d1d5db"
	colourNow           = "#111827"
	colourBar           = "#1d4ed8"
	colourBarToday      = "#b45309"
)

// seriesJSON is what data-series holds: [unix ms, value] pairs.
type seriesJSON struct {
	Window    string       `json:"window"`
	Allowance [][2]float64 `json:"allowance"`
	Safe      [][2]float64 `json:"safe"`
	Usage     [][2]float64 `json:"usage"`
	Util      float64      `json:"util"`
	Target    float64      `json:"target"`
	SafeNow   float64      `json:"safe_now"`
}

func pairs(ps []Point) [][2]float64 {
	out := make([][2]float64, len(ps))
	for i, p := range ps {
		out[i] = [2]float64{float64(p.T.UnixMilli()), p.V}
	}
	return out
}

// windowSVG draws one quota window: weekends shaded, allowance and safe
// allowance as lines across the whole window, observed utilisation as a
// line with dots, and now as a vertical rule.
func windowSVG(c WindowChart, now time.Time) template.HTML {
	span := c.Reset.Sub(c.Start).Seconds()
	if span <= 0 {
		return ""
	}
	ymax := 100.0
	for _, s := range [][]Point{c.Allowance, c.SafeAllowance, c.Usage} {
		for _, p := range s {
			ymax = math.Max(ymax, p.V)
		}
	}
	ymax = math.Ceil(ymax/20) * 20
	x := func(t time.Time) float64 {
		f := t.Sub(c.Start).Seconds() / span
		return plotL + math.Max(0, math.Min(1, f))*(plotR-plotL)
	}
	y := func(v float64) float64 { return plotBottom - v/ymax*(plotBottom-plotTop) }

	data, _ := json.Marshal(seriesJSON{Window: c.Name, Allowance: pairs(c.Allowance), Safe: pairs(c.SafeAllowance),
		Usage: pairs(c.Usage), Util: c.Util, Target: c.Target, SafeNow: c.Safe})
	var b strings.Builder
	label := fmt.Sprintf("%s window: %.1f%% used, allowance %.1f%%, safe allowance %.1f%%, resets %s",
		c.Name, c.Util, c.Target, c.Safe, c.Reset.Local().Format("Mon 15:04"))
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %g %g" role="img" aria-label="%s" data-window="%s" data-series="%s">`,
		chartW, chartH, html.EscapeString(label), html.EscapeString(c.Name), html.EscapeString(string(data)))
	fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(label))
	for _, w := range c.Weekends {
		x0, x1 := x(w.From), x(w.To)
		fmt.Fprintf(&b, `<rect class="weekend" x="%.1f" y="%g" width="%.1f" height="%g" fill="%s"/>`,
			x0, plotTop, x1-x0, plotBottom-plotTop, colourWeekend)
	}
	for v := 0.0; v <= ymax; v += 20 {
		fmt.Fprintf(&b, `<line x1="%g" x2="%g" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="1"/>`, plotL, plotR, y(v), y(v), colourGrid)
		fmt.Fprintf(&b, `<text x="%g" y="%.1f" text-anchor="end" class="tick">%g%%</text>`, plotL-4, y(v)+4, v)
	}
	for _, t := range ticks(c.Start, c.Reset) {
		fmt.Fprintf(&b, `<text x="%.1f" y="%g" text-anchor="middle" class="tick">%s</text>`, x(t.at), chartLabelY, t.label)
	}
	line := func(ps []Point, colour, dash, class string) {
		if len(ps) == 0 {
			return
		}
		var pts strings.Builder
		for i, p := range ps {
			if i > 0 {
				pts.WriteByte(' ')
			}
			fmt.Fprintf(&pts, "%.1f,%.1f", x(p.T), y(p.V))
		}
		fmt.Fprintf(&b, `<polyline class="%s" points="%s" fill="none" stroke="%s" stroke-width="2"%s/>`, class, pts.String(), colour, dash)
	}
	line(c.Allowance, colourAllowance, ` stroke-dasharray="6 4"`, "allowance")
	line(c.SafeAllowance, colourSafe, "", "safe")
	line(c.Usage, colourUsage, "", "usage")
	for _, p := range c.Usage {
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>`, x(p.T), y(p.V), colourUsage)
	}
	if !now.Before(c.Start) && now.Before(c.Reset) {
		fmt.Fprintf(&b, `<line class="now" x1="%.1f" x2="%.1f" y1="%g" y2="%g" stroke="%s" stroke-width="1.5"/>`,
			x(now), x(now), plotTop, plotBottom, colourNow)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

type tick struct {
	at    time.Time
	label string
}

// ticks are hour marks for a short window and day marks (at local
// midnight) for a long one.
func ticks(start, end time.Time) []tick {
	var out []tick
	if end.Sub(start) <= 12*time.Hour {
		for t := start.Truncate(time.Hour).Add(time.Hour); t.Before(end); t = t.Add(time.Hour) {
			out = append(out, tick{t, t.Local().Format("15:04")})
		}
		return out
	}
	l := start.Local()
	for t := time.Date(l.Year(), l.Month(), l.Day()+1, 0, 0, 0, 0, time.Local); t.Before(end); t = t.AddDate(0, 0, 1) {
		out = append(out, tick{t, t.Format("Mon")})
	}
	return out
}

// costBars draws the daily cost of the last days as bars, today's last.
func costBars(rows []usage.PeriodRow) template.HTML {
	if len(rows) == 0 {
		return ""
	}
	if len(rows) > 30 {
		rows = rows[len(rows)-30:]
	}
	maxCost := 0.0
	for _, r := range rows {
		maxCost = math.Max(maxCost, r.TotalCost)
	}
	if maxCost == 0 {
		maxCost = 1
	}
	step := (plotR - plotL) / float64(len(rows))
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %g %g" role="img" aria-label="Cost per day, last %d days">`, chartW, chartH, len(rows))
	fmt.Fprintf(&b, `<title>Cost per day, last %d days</title>`, len(rows))
	for i := 0; i <= 4; i++ {
		v := maxCost * float64(i) / 4
		yy := plotBottom - float64(i)/4*(plotBottom-plotTop)
		fmt.Fprintf(&b, `<line x1="%g" x2="%g" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="1"/>`, plotL, plotR, yy, yy, colourGrid)
		fmt.Fprintf(&b, `<text x="%g" y="%.1f" text-anchor="end" class="tick">$%.0f</text>`, plotL-4, yy+4, v)
	}
	for i, r := range rows {
		h := r.TotalCost / maxCost * (plotBottom - plotTop)
		colour := colourBar
		if i == len(rows)-1 {
			colour = colourBarToday
		}
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s: $%.2f</title></rect>`,
			plotL+float64(i)*step+step*0.15, plotBottom-h, step*0.7, h, colour, html.EscapeString(r.Period), r.TotalCost)
		if len(rows) <= 10 || i%5 == 0 || i == len(rows)-1 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%g" text-anchor="middle" class="tick">%s</text>`,
				plotL+float64(i)*step+step/2, chartLabelY, html.EscapeString(shortDate(r.Period)))
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// shortDate turns 2026-11-26 into 11-26.
func shortDate(p string) string {
	if len(p) == 10 {
		return p[5:]
	}
	return p
}
