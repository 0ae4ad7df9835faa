package simulate

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"
	"time"
)

// The chart: x is time over the simulated days (weekends shaded), y is
// percent of the 7-day limit, 0-110. Series (SVG path ids): utilisation
// (throttled, with warden), utilisation-unthrottled, allowance,
// safe-allowance; a dashed line marks 100 %.

const (
	chartW, chartH                 = 1000, 460
	padL, padR, padT, padB         = 56, 20, 40, 60
	plotW                          = chartW - padL - padR
	plotH                          = chartH - padT - padB
	yMax                           = 110.0
	colUtil, colUnthrottled        = "#d62728", "#ff9896"
	colAllowance, colSafe, colWknd = "#1f77b4", "#2ca02c", "#eeeeee"
)

type series struct {
	id, label, color string
	dash             string
	width            float64
	value            func(Sample) float64
}

func allSeries() []series {
	return []series{
		{"allowance", "allowance", colAllowance, "", 2, func(s Sample) float64 { return s.Allowance }},
		{"safe-allowance", "safe allowance", colSafe, "6 4", 2, func(s Sample) float64 { return s.Safe }},
		{"utilisation-unthrottled", "utilisation without warden", colUnthrottled, "3 3", 2, func(s Sample) float64 { return s.UtilNoThrottle }},
		{"utilisation", "utilisation with warden", colUtil, "", 2.5, func(s Sample) float64 { return s.Util }},
	}
}

func (res Result) x(t time.Time) float64 {
	span := res.End.Sub(res.Start).Seconds()
	if span <= 0 {
		return padL
	}
	return padL + t.Sub(res.Start).Seconds()/span*plotW
}

func y(v float64) float64 {
	return padT + plotH - math.Max(0, math.Min(v, yMax))/yMax*plotH
}

// weekends are the Saturday-Sunday spans (UTC) inside the simulation.
func (res Result) weekends() [][2]time.Time {
	var out [][2]time.Time
	day := time.Date(res.Start.Year(), res.Start.Month(), res.Start.Day(), 0, 0, 0, 0, time.UTC)
	for ; day.Before(res.End); day = day.Add(24 * time.Hour) {
		if wd := day.Weekday(); wd == time.Saturday || wd == time.Sunday {
			a, b := day, day.Add(24*time.Hour)
			if a.Before(res.Start) {
				a = res.Start
			}
			if b.After(res.End) {
				b = res.End
			}
			if n := len(out); n > 0 && out[n-1][1].Equal(a) {
				out[n-1][1] = b
			} else {
				out = append(out, [2]time.Time{a, b})
			}
		}
	}
	return out
}

// SVG writes the chart as a standalone SVG document.
func (res Result) SVG(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">
<title>warden pace simulate: 7-day utilisation vs allowance</title>
<rect width="100%%" height="100%%" fill="white"/>
`, chartW, chartH, chartW, chartH)
	b.WriteString(`<g id="weekends">` + "\n")
	for _, we := range res.weekends() {
		x0, x1 := res.x(we[0]), res.x(we[1])
		fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"/>`+"\n", x0, padT, x1-x0, plotH, colWknd)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" fill="#999">weekend</text>`+"\n", (x0+x1)/2, padT+14)
	}
	b.WriteString("</g>\n<g id=\"grid\" stroke=\"#ccc\" stroke-width=\"1\">\n")
	for v := 0.0; v <= yMax; v += 10 {
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f"/>`+"\n", padL, y(v), padL+plotW, y(v))
	}
	b.WriteString("</g>\n<g id=\"axes\" fill=\"#333\">\n")
	for v := 0.0; v <= yMax; v += 20 {
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%.0f%%</text>`+"\n", padL-6, y(v)+4, v)
	}
	for day := res.Start; !day.After(res.End); day = day.Add(24 * time.Hour) {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", res.x(day), padT+plotH+18, day.Format("Mon 02"))
	}
	fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#000" stroke-dasharray="2 2"/>`+"\n", padL, y(100), padL+plotW, y(100))
	b.WriteString("</g>\n")
	for _, s := range allSeries() {
		var d strings.Builder
		for i, smp := range res.Samples {
			cmd := "L"
			if i == 0 {
				cmd = "M"
			}
			fmt.Fprintf(&d, "%s%.1f %.1f ", cmd, res.x(smp.Time), y(s.value(smp)))
		}
		dash := ""
		if s.dash != "" {
			dash = ` stroke-dasharray="` + s.dash + `"`
		}
		fmt.Fprintf(&b, `<path id="%s" d="%s" fill="none" stroke="%s" stroke-width="%g"%s><title>%s</title></path>`+"\n",
			s.id, strings.TrimSpace(d.String()), s.color, s.width, dash, s.label)
	}
	b.WriteString(`<g id="legend">` + "\n")
	for i, s := range allSeries() {
		lx := float64(padL + i*230)
		ly := float64(chartH - 16)
		dash := ""
		if s.dash != "" {
			dash = ` stroke-dasharray="` + s.dash + `"`
		}
		fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="%s" stroke-width="3"%s/><text x="%.0f" y="%.0f">%s</text>`+"\n",
			lx, ly-4, lx+24, ly-4, s.color, dash, lx+30, ly, s.label)
	}
	b.WriteString("</g>\n")
	title := fmt.Sprintf("7-day window from %s: %g calls/h, %d session(s); with warden %.0f%% (delay %s), without %.0f%%",
		res.Start.Format("Mon 2006-01-02 15:04 UTC"), res.Profile.CallsPerHour, res.Profile.Sessions,
		res.FinalUtil, res.TotalDelay.Round(time.Minute), res.FinalUtilNoThrottle)
	fmt.Fprintf(&b, `<text x="%d" y="22" font-size="14" font-weight="bold">%s</text>`+"\n", padL, xmlEscape(title))
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func xmlEscape(s string) string {
	var buf bytes.Buffer
	for _, r := range s {
		switch r {
		case '<':
			buf.WriteString("&lt;")
		case '>':
			buf.WriteString("&gt;")
		case '&':
			buf.WriteString("&amp;")
		default:
			buf.WriteRune(r)
		}
	}
	return buf.String()
}
