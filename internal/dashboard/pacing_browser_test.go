package dashboard_test

import (
	"context"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/dashboard"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pace/quota"
)

type drawnSeries struct {
	Window    string       `json:"window"`
	Allowance [][2]float64 `json:"allowance"`
	Safe      [][2]float64 `json:"safe"`
	Usage     [][2]float64 `json:"usage"`
	Util      float64      `json:"util"`
	Target    float64      `json:"target"`
	SafeNow   float64      `json:"safe_now"`
}

// TestPacingChartMatchesPacing reads both window charts as the browser
// drew them and checks every series against package pace: each allowance
// point is pace's allowance function at that instant, each safe point the
// safe allowance, the usage points are the stored snapshots of that
// window, and the figures now are pace.Compute's at the JSON endpoint's
// moment. The polylines carry as many points as the series and the 7-day
// chart shades each weekend.
//
// The instant is pinned, not read from the wall clock: a Saturday (the
// 5-hour window inside a weekend), a Monday, a Friday evening whose 5-hour
// window runs into Saturday, and the nights clocks change in New York and
// Berlin, with daily usage in those zones.
func TestPacingChartMatchesPacing(t *testing.T) {
	for _, tc := range []struct {
		name string
		now  string
		zone string
	}{
		{"saturday", "2026-11-28T10:00:00Z", "UTC"},
		{"monday", "2026-11-30T09:00:00Z", "UTC"},
		{"friday-evening", "2026-11-27T22:30:00Z", "UTC"},
		{"dst-starts-new-york", "2026-03-08T06:30:00Z", "America/New_York"},
		{"dst-ends-berlin", "2026-10-25T00:30:00Z", "Europe/Berlin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now, err := time.Parse(time.RFC3339, tc.now)
			if err != nil {
				t.Fatal(err)
			}
			loc, err := time.LoadLocation(tc.zone)
			if err != nil {
				t.Fatal(err)
			}
			checkPacingChart(t, now, loc)
		})
	}
}

func checkPacingChart(t *testing.T, now time.Time, loc *time.Location) {
	e := newEnvAt(t, now, loc)
	seed(t, e, now)
	b := newBrowser(t, 1280, 860, false)
	b.login(t, e)
	b.open(t, e.url("/"))

	raw := eval[[]string](t, b, `Array.from(document.querySelectorAll("svg.chart[data-series]")).map(s => s.dataset.series)`)
	if len(raw) != 2 {
		t.Fatalf("%d window charts, want 2", len(raw))
	}
	drawn := map[string]drawnSeries{}
	for _, r := range raw {
		var s drawnSeries
		if err := json.Unmarshal([]byte(r), &s); err != nil {
			t.Fatal(err)
		}
		drawn[s.Window] = s
	}
	apiJSON := eval[string](t, b, `(async () => await (await fetch("/ui/pacing.json")).text())()`)
	var api dashboard.PacingView
	if err := json.Unmarshal([]byte(apiJSON), &api); err != nil {
		t.Fatalf("pacing.json: %v\n%s", err, apiJSON)
	}

	params := pace.DefaultSettings().Params
	snaps, err := e.st.SnapshotsSince(context.Background(), now.Add(-8*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		name      string
		reset     time.Time
		hours     float64
		allowance func(start, t time.Time) float64
		util      func(s quota.Snapshot) *float64
	}{
		{"5-hour", fiveReset(now), 5, func(s, at time.Time) float64 {
			return pace.ContinuousAllowance(s, at, pace.FiveHourWindowHours, pace.FiveHourPreloadHours)
		}, func(s quota.Snapshot) *float64 { return s.FiveHour.Util }},
		{"7-day", sevenReset(now), 168, func(s, at time.Time) float64 {
			return pace.WeekdayAllowance(s, at, pace.SevenDayWindowHours, params.PreloadHours)
		}, func(s quota.Snapshot) *float64 { return s.SevenDay.Util }},
	} {
		d, ok := drawn[w.name]
		if !ok {
			t.Fatalf("no %s chart", w.name)
		}
		start := w.reset.Add(-time.Duration(w.hours * float64(time.Hour)))
		if len(d.Allowance) < 50 || len(d.Safe) != len(d.Allowance) {
			t.Fatalf("%s: %d allowance and %d safe points", w.name, len(d.Allowance), len(d.Safe))
		}
		if first, last := d.Allowance[0][0], d.Allowance[len(d.Allowance)-1][0]; first != float64(start.UnixMilli()) || last != float64(w.reset.UnixMilli()) {
			t.Errorf("%s: series spans %v..%v, want the window %v..%v", w.name, ms(first), ms(last), start, w.reset)
		}
		for i, p := range d.Allowance {
			at := ms(p[0])
			if want := w.allowance(start, at); p[1] != want {
				t.Errorf("%s allowance at %v = %v, pace says %v", w.name, at, p[1], want)
			}
			if want := pace.SafeAllowance(p[1], params.SafetyBufferPct); d.Safe[i][1] != want || d.Safe[i][0] != p[0] {
				t.Errorf("%s safe allowance at %v = %v, pace says %v", w.name, at, d.Safe[i][1], want)
			}
		}
		var wantUsage [][2]float64
		for _, s := range snaps {
			if u := w.util(s); u != nil && !s.Time.Before(start) {
				wantUsage = append(wantUsage, [2]float64{float64(s.Time.UnixMilli()), *u})
			}
		}
		if len(d.Usage) != len(wantUsage) {
			t.Fatalf("%s: %d usage points drawn, the store has %d", w.name, len(d.Usage), len(wantUsage))
		}
		for i := range wantUsage {
			if d.Usage[i] != wantUsage[i] {
				t.Errorf("%s usage point %d = %v, stored %v", w.name, i, d.Usage[i], wantUsage[i])
			}
		}

		// The figures now: pace.Compute on the stored figures at the
		// endpoint's moment gives the endpoint's numbers exactly, and the
		// chart's (drawn a moment earlier) within the drift of that moment.
		var aw *dashboard.WindowChart
		for i := range api.Windows {
			if api.Windows[i].Name == w.name {
				aw = &api.Windows[i]
			}
		}
		if aw == nil {
			t.Fatalf("pacing.json has no %s window", w.name)
		}
		latest, err := e.st.LatestSnapshot(context.Background(), quota.SourceStatusline)
		if err != nil {
			t.Fatal(err)
		}
		rec := pace.Compute(latest, pace.DefaultSettings(), api.Sessions, api.Now)
		ws := rec.Decision.FiveHour
		if w.name == "7-day" {
			ws = rec.Decision.SevenDay
		}
		if aw.Util != ws.Utilization || aw.Target != ws.Target || aw.Safe != pace.SafeAllowance(ws.Target, params.SafetyBufferPct) {
			t.Errorf("%s: pacing.json util/target/safe = %v/%v/%v, pace.Compute %v/%v", w.name, aw.Util, aw.Target, aw.Safe, ws.Utilization, ws.Target)
		}
		if d.Util != aw.Util || math.Abs(d.Target-aw.Target) > 0.05 {
			t.Errorf("%s: chart util/target %v/%v, pacing.json %v/%v", w.name, d.Util, d.Target, aw.Util, aw.Target)
		}
		if api.DelaySeconds != rec.DelaySeconds || api.Strategy != string(rec.Decision.Strategy) {
			t.Errorf("pacing.json delay %d %s, pace.Compute %d %s", api.DelaySeconds, api.Strategy, rec.DelaySeconds, rec.Decision.Strategy)
		}

		// The drawing carries the series.
		sel := `svg.chart[data-window="` + w.name + `"]`
		if n := eval[int](t, b, `document.querySelector('`+sel+` polyline.allowance').points.numberOfItems`); n != len(d.Allowance) {
			t.Errorf("%s: allowance line has %d points, series %d", w.name, n, len(d.Allowance))
		}
		if n := eval[int](t, b, `document.querySelector('`+sel+` polyline.usage').points.numberOfItems`); n != len(d.Usage) {
			t.Errorf("%s: usage line has %d points, series %d", w.name, n, len(d.Usage))
		}
		// Only the 7-day window counts weekdays (pace.WeekdayAllowance):
		// the 5-hour allowance runs on through weekends, unshaded.
		wantBands := 0
		inWeekend := false
		for at := start; w.name == "7-day" && at.Before(w.reset); at = at.Add(time.Hour) {
			we := pace.IsWeekend(at.UTC())
			if we && !inWeekend {
				wantBands++
			}
			inWeekend = we
		}
		if n := eval[int](t, b, `document.querySelectorAll('`+sel+` rect.weekend').length`); n != wantBands {
			t.Errorf("%s: %d weekend bands shaded, want %d", w.name, n, wantBands)
		}
	}
	if errs := b.takeErrors(); len(errs) > 0 {
		t.Errorf("browser errors: %q", errs)
	}
}

func ms(v float64) time.Time { return time.UnixMilli(int64(v)).UTC() }
