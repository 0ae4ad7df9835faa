package simulate

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/pace"
)

var monday = time.Date(2025, 11, 3, 0, 0, 0, 0, time.UTC)

func TestHeavyUseIsThrottledBelowTheLimit(t *testing.T) {
	p := DefaultProfile()
	p.CostPerCall = 0.02 // 120 calls/h × 9 h × 5 days × 0.02 = 108 points unthrottled
	res := Run(p, pace.DefaultParams(), monday, 7)
	if res.Hit100NoThrottle == nil {
		t.Fatalf("unthrottled run should hit 100%%: %s", res.Summary())
	}
	if res.Hit100 != nil || res.FinalUtil >= 100 || res.TotalDelay == 0 {
		t.Errorf("throttled run: %s", res.Summary())
	}
	if res.Calls >= res.CallsNoThrottle {
		t.Errorf("throttling made no fewer calls")
	}
	if len(res.Samples) != 7*24*4+1 {
		t.Errorf("%d samples", len(res.Samples))
	}
	// Weekends frozen: the allowance is flat from Saturday to Monday.
	var sat, sun Sample
	for _, s := range res.Samples {
		if s.Time.Equal(monday.Add(5 * 24 * time.Hour)) {
			sat = s
		}
		if s.Time.Equal(monday.Add(6*24*time.Hour + 23*time.Hour)) {
			sun = s
		}
	}
	if sat.Allowance != sun.Allowance || sat.Allowance < 99 {
		t.Errorf("weekend allowance sat %.2f sun %.2f", sat.Allowance, sun.Allowance)
	}
}

func TestLightUseIsNotThrottled(t *testing.T) {
	p := DefaultProfile()
	p.CostPerCall, p.FiveHourCostPerCall = 0.002, 0.01
	res := Run(p, pace.DefaultParams(), monday, 7)
	if res.TotalDelay != 0 || res.Calls != res.CallsNoThrottle || res.Hit100 != nil {
		t.Errorf("%s", res.Summary())
	}
}

// The SVG is valid XML with the series as paths and shaded weekends; the
// (The SVG is the chart: a PNG without labels was dropped.)
func TestChartSVG(t *testing.T) {
	res := Run(DefaultProfile(), pace.DefaultParams(), monday, 7)
	var buf bytes.Buffer
	if err := res.SVG(&buf); err != nil {
		t.Fatal(err)
	}
	paths := map[string]int{}
	weekendRects := 0
	dec := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	var inWeekends bool
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not valid XML: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			attr := func(n string) string {
				for _, a := range el.Attr {
					if a.Name.Local == n {
						return a.Value
					}
				}
				return ""
			}
			if el.Name.Local == "g" && attr("id") == "weekends" {
				inWeekends = true
			}
			if el.Name.Local == "rect" && inWeekends {
				weekendRects++
			}
			if el.Name.Local == "path" {
				paths[attr("id")] = strings.Count(attr("d"), "L") + 1
			}
		case xml.EndElement:
			if el.Name.Local == "g" {
				inWeekends = false
			}
		}
	}
	for _, id := range []string{"utilisation", "allowance", "safe-allowance", "utilisation-unthrottled"} {
		if paths[id] != len(res.Samples) {
			t.Errorf("series %s has %d points, want %d", id, paths[id], len(res.Samples))
		}
	}
	if weekendRects != 1 {
		t.Errorf("%d weekend rectangles, want 1 (Sat-Sun)", weekendRects)
	}
}
