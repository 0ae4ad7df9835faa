package pace

import (
	"encoding/json"
	"math"
	"sort"
	"strings"
	"testing"
	"time"
)

// The standard moment of these tests: Thursday 2025-11-06 12:00 UTC.
//
//	5-hour window resets 14:30: start 09:30, 2.5 h elapsed.
//	  time_elapsed_pct = (18,000-9,000)/18,000*100 = 50
//	  target = 9,000/18,000*100 = 50 (past the 0.5 h preload)
//	7-day window resets Mon 11-10 00:00: start Mon 11-03 00:00.
//	  time_elapsed_pct = (604,800-302,400)/604,800*100 = 50 (84 h left)
//	  weekday seconds elapsed = Mon..Wed 72 h + Thu 12 h = 84 h of 120
//	  target = 84/120*100 = 70
var (
	thu       = at(6, 12, 0, 0)
	fiveReset = at(6, 14, 30, 0)
	weekReset = at(10, 0, 0, 0)
)

func in2(fiveUtil float64, five *time.Time, sevenUtil float64, seven *time.Time, now time.Time) Input {
	return Input{Now: now,
		FiveHour: Window{Utilization: fiveUtil, ResetsAt: five},
		SevenDay: Window{Utilization: sevenUtil, ResetsAt: seven}}
}

func params(f func(*Params)) Params {
	p := DefaultParams()
	if f != nil {
		f(&p)
	}
	return p
}

func TestDecide(t *testing.T) {
	t.Parallel()
	type want struct {
		window     WindowName // "" = null
		deviation  float64
		delay      int
		strategy   Strategy // "" = absent
		five       WindowStatus
		seven      WindowStatus
		proj       *Projection // checked when set
		stale      bool
		err        string
		noStrategy bool
	}
	std5 := func(u float64) WindowStatus { return WindowStatus{u, 50, 50} }
	std7 := func(u float64) WindowStatus { return WindowStatus{u, 70, 50} }
	tests := []struct {
		name string
		in   Input
		p    Params
		want want
	}{
		// 5 h: 40-50 = -10; 7 d: 80-70 = 10: 7-day.
		// 7-day delay: safe 66.5, overage 13.5; elapsed hours 0.7*168 =
		// 117.6; burn = 80/117.6 = 0.680272; target = (95-80)/84 = 0.178571;
		// slowdown = 15*117.6/(84*80) = 0.2625; multiplier 20:
		// int(5*(1/0.2625-1)*20) = int(280.95) = 280; overage < 20: gradual.
		// Projections: 80 + 80/117.6*84 = 137.142857; 80 + 15 = 95.
		{"7-day most constrained", in2(40, &fiveReset, 80, &weekReset, thu), params(nil), want{
			window: SevenDay, deviation: 10, delay: 280, strategy: StrategyGradual,
			five: std5(40), seven: std7(80),
			proj: &Projection{Allowance: 70, SafeAllowance: 66.5, BufferRemaining: -13.5,
				CreditsRemainingPct: 20, UtilIfNoThrottle: 80 + 80/117.6*84, UtilIfThrottled: 95}}},
		// 5 h: 60-50 = 10; 7 d: 75-70 = 5: 5-hour.
		// 5-hour delay: safe 47.5, overage 12.5; burn 60/2.5 = 24; target
		// 35/2.5 = 14; multiplier 40: int(5*(24/14-1)*40) = int(142.86) =
		// 142: gradual. Projections 60+24*2.5 = 120; 60+14*2.5 = 95.
		{"5-hour most constrained", in2(60, &fiveReset, 75, &weekReset, thu), params(nil), want{
			window: FiveHour, deviation: 10, delay: 142, strategy: StrategyGradual,
			five: std5(60), seven: std7(75),
			proj: &Projection{Allowance: 50, SafeAllowance: 47.5, BufferRemaining: -12.5,
				CreditsRemainingPct: 40, UtilIfNoThrottle: 120, UtilIfThrottled: 95}}},
		// 5 h: 60-50 = 10; 7 d: 80-70 = 10: tie, 5-hour (142 as above).
		{"tie goes to 5-hour", in2(60, &fiveReset, 80, &weekReset, thu), params(nil), want{
			window: FiveHour, deviation: 10, delay: 142, strategy: StrategyGradual,
			five: std5(60), seven: std7(80)}},
		// Weekly limit off: the 7-day window (deviation 10) is left out, the
		// 5-hour one (deviation -10, util 40 < safe 47.5) decides: none.
		// Its target is still reported.
		{"weekly limit off", in2(40, &fiveReset, 80, &weekReset, thu), params(func(p *Params) { p.WeeklyLimit = false }), want{
			window: FiveHour, deviation: -10, strategy: StrategyNone,
			five: std5(40), seven: std7(80)}},
		// 5-hour limit off: the 7-day window decides. Overage 75-66.5 = 8.5;
		// burn 75/117.6; target 20/84; slowdown = 20*117.6/(84*75) =
		// 0.373333; int(100*(1/0.373333-1)) = int(167.86) = 167: gradual.
		{"5-hour limit off", in2(60, &fiveReset, 75, &weekReset, thu), params(func(p *Params) { p.FiveHourLimit = false }), want{
			window: SevenDay, deviation: 5, delay: 167, strategy: StrategyGradual,
			five: std5(60), seven: std7(75)}},
		// Both off: no window, deviation 0, no strategy or projection, but
		// targets and time percentages are still reported.
		{"both limits off", in2(60, &fiveReset, 75, &weekReset, thu), params(func(p *Params) { p.FiveHourLimit, p.WeeklyLimit = false, false }), want{
			five: std5(60), seven: std7(75), noStrategy: true}},
		// No 5-hour reset time: target 0, time 0, not a candidate even
		// though util 99 - 0 = 99 would win. 7-day as in the first row.
		{"5-hour without reset time", in2(99, nil, 80, &weekReset, thu), params(nil), want{
			window: SevenDay, deviation: 10, delay: 280, strategy: StrategyGradual,
			five: WindowStatus{99, 0, 0}, seven: std7(80)}},
		{"no reset times at all", in2(99, nil, 99, nil, thu), params(nil), want{
			five: WindowStatus{99, 0, 0}, seven: WindowStatus{99, 0, 0}, noStrategy: true}},
		// 5-hour reset 10 min ago: stale (-1), target 0, left out; the
		// 7-day window decides (280) and the error names the 5-hour window.
		{"5-hour stale", in2(40, ptr(thu.Add(-10*time.Minute)), 80, &weekReset, thu), params(nil), want{
			window: SevenDay, deviation: 10, delay: 280, strategy: StrategyGradual,
			five: WindowStatus{40, 0, -1}, seven: std7(80),
			stale: true, err: "5-hour window data is stale (resets_at has passed)"}},
		// 7-day reset 301 s ago: stale; the 5-hour window decides (util 60:
		// 142 as above).
		{"7-day stale", in2(60, &fiveReset, 80, ptr(thu.Add(-301*time.Second)), thu), params(nil), want{
			window: FiveHour, deviation: 10, delay: 142, strategy: StrategyGradual,
			five: std5(60), seven: WindowStatus{80, 0, -1},
			stale: true, err: "7-day window data is stale (resets_at has passed)"}},
		// Both stale: early return, targets 0, time -1, no window.
		{"both stale", in2(98, ptr(thu.Add(-301*time.Second)), 80, ptr(thu.Add(-time.Hour)), thu), params(nil), want{
			five: WindowStatus{98, 0, -1}, seven: WindowStatus{80, 0, -1}, noStrategy: true,
			stale: true, err: "Both window data is stale (resets_at has passed)"}},
		// 5-hour reset 100 s ago is within the 300 s grace: time 100, target
		// clamps to 100, deviation 98-100 = -2 beats 7-day 60-70 = -10. No
		// time left and util 98 > safe 95: max_delay, emergency.
		{"reset within grace: no time left", in2(98, ptr(thu.Add(-100*time.Second)), 60, &weekReset, thu), params(nil), want{
			window: FiveHour, deviation: -2, delay: 350, strategy: StrategyEmergency,
			five: WindowStatus{98, 100, 100}, seven: std7(60)}},
		// Saturday 12:00; 5-hour resets 14:30 (target 50, util 48, dev -2);
		// 7-day: all 120 weekday hours elapsed, target 100, util 50, dev
		// -50, 36 h left: time (168-36)/168*100 = 78.571. 5-hour wins and
		// 48 > 47.5 on a weekend: emergency (a weekday gives 0; see the
		// "UTC" row).
		{"weekend emergency through Decide",
			in2(48, ptr(at(8, 14, 30, 0)), 50, &weekReset, at(8, 12, 0, 0)), params(nil), want{
				window: FiveHour, deviation: -2, delay: 350, strategy: StrategyEmergency,
				five: std5(48), seven: WindowStatus{50, 100, 132.0 / 168 * 100}}},
		// Monday 06:00, 7-day only, util 8. preload 0: target 6/120*100 =
		// 5, dev 3, safe 4.75, overage 3.25; elapsed hours 0.05*168 = 8.4;
		// burn 8/8.4; 162 h left; target 87/162; slowdown 0.563889;
		// int(100*(1/0.563889-1)) = int(77.34) = 77: minimal. Time
		// (168-162)/168*100 = 3.5714.
		{"preload 0", in2(0, nil, 8, &weekReset, at(3, 6, 0, 0)), params(func(p *Params) { p.PreloadHours = 0 }), want{
			window: SevenDay, deviation: 3, delay: 77, strategy: StrategyMinimal,
			five: WindowStatus{0, 0, 0}, seven: WindowStatus{8, 5, 6.0 / 168 * 100}}},
		// Same with the default 12 h preload: target 10, dev -2, under.
		{"default preload covers the first hours", in2(0, nil, 8, &weekReset, at(3, 6, 0, 0)), params(nil), want{
			window: SevenDay, deviation: -2, strategy: StrategyNone,
			five: WindowStatus{0, 0, 0}, seven: WindowStatus{8, 10, 6.0 / 168 * 100}}},
		// The 5-hour preload is always 0.5 h, whatever preload_hours says.
		// 5-hour resets in 4 h 45 min: 15 min elapsed, time
		// (18,000-17,100)/18,000*100 = 5; target = preload 0.5/5*100 = 10
		// (linear would be 5); util 9.4: dev -0.6, safe 9.5: under budget.
		// (With no preload: safe 4.75, burn 9.4/0.25 = 37.6, a long delay.)
		{"5-hour preload is fixed at 0.5 h", in2(9.4, ptr(thu.Add(285*time.Minute)), 0, nil, thu),
			params(func(p *Params) { p.PreloadHours = 0 }), want{
				window: FiveHour, deviation: -0.6, strategy: StrategyNone,
				five: WindowStatus{9.4, 10, 5}, seven: WindowStatus{0, 0, 0}}},
		// base_delay 10, max_delay 600 honoured: int(10*(1/0.2625-1)*20) =
		// int(561.9) = 561.
		{"base and max delay honoured", in2(40, &fiveReset, 80, &weekReset, thu),
			params(func(p *Params) { p.BaseDelay, p.MaxDelay = 10, 600 }), want{
				window: SevenDay, deviation: 10, delay: 561, strategy: StrategyGradual,
				five: std5(40), seven: std7(80)}},
		// threshold 15 > overage 13.5: no throttling, window still named.
		{"threshold tolerates the overage", in2(40, &fiveReset, 80, &weekReset, thu),
			params(func(p *Params) { p.ThresholdPercent = 15 }), want{
				window: SevenDay, deviation: 10, strategy: StrategyNone,
				five: std5(40), seven: std7(80)}},
		// Fri 17:00 UTC given as Sat 02:00 +09:00, resets in -05:00. In UTC
		// it is Friday: 5-hour util 48, slowdown 47/48 = 0.979: none. (Read
		// as Saturday it would be a weekend emergency.) 7-day: 113 weekday
		// hours: target 113/120*100 = 94.1667, 55 h left: time
		// 113/168*100 = 67.2619.
		{"times are taken in UTC",
			in2(48, ptr(time.Date(2025, 11, 7, 14, 30, 0, 0, time.FixedZone("", -5*3600))),
				50, ptr(time.Date(2025, 11, 9, 19, 0, 0, 0, time.FixedZone("", -5*3600))),
				time.Date(2025, 11, 8, 2, 0, 0, 0, time.FixedZone("", 9*3600))),
			params(nil), want{
				window: FiveHour, deviation: -2, strategy: StrategyNone,
				five: std5(48), seven: WindowStatus{50, 113.0 / 120 * 100, 113.0 / 168 * 100}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := Decide(tt.in, tt.p)
			w := tt.want
			var got WindowName
			if d.ConstrainedWindow != nil {
				got = *d.ConstrainedWindow
			}
			if got != w.window {
				t.Errorf("constrained_window = %q, want %q", got, w.window)
			}
			near(t, "deviation_percent", d.DeviationPercent, w.deviation)
			if d.DelaySeconds != w.delay || d.ShouldThrottle != (w.delay > 0) {
				t.Errorf("delay = %d (throttle %v), want %d", d.DelaySeconds, d.ShouldThrottle, w.delay)
			}
			if d.Strategy != w.strategy {
				t.Errorf("strategy = %q, want %q", d.Strategy, w.strategy)
			}
			if w.noStrategy != (d.Projection == nil) || w.noStrategy != (d.Trace == nil) {
				t.Errorf("projection present = %v, want %v", d.Projection != nil, !w.noStrategy)
			}
			for _, c := range []struct {
				name      string
				got, want WindowStatus
			}{{"five_hour", d.FiveHour, w.five}, {"seven_day", d.SevenDay, w.seven}} {
				near(t, c.name+".utilization", c.got.Utilization, c.want.Utilization)
				near(t, c.name+".target", c.got.Target, c.want.Target)
				near(t, c.name+".time_elapsed_pct", c.got.TimeElapsedPct, c.want.TimeElapsedPct)
			}
			if d.StaleData != w.stale || d.Error != w.err {
				t.Errorf("stale, error = %v, %q; want %v, %q", d.StaleData, d.Error, w.stale, w.err)
			}
			if p := w.proj; p != nil && d.Projection != nil {
				near(t, "allowance", d.Projection.Allowance, p.Allowance)
				near(t, "safe_allowance", d.Projection.SafeAllowance, p.SafeAllowance)
				near(t, "buffer_remaining", d.Projection.BufferRemaining, p.BufferRemaining)
				near(t, "credits_remaining_pct", d.Projection.CreditsRemainingPct, p.CreditsRemainingPct)
				near(t, "util_if_no_throttle", d.Projection.UtilIfNoThrottle, p.UtilIfNoThrottle)
				near(t, "util_if_throttled", d.Projection.UtilIfThrottled, p.UtilIfThrottled)
			}
		})
	}
}

// The JSON has exactly the reference's keys in each shape.
func TestDecisionJSONKeys(t *testing.T) {
	t.Parallel()
	windowKeys := "target,time_elapsed_pct,utilization"
	tests := []struct {
		name string
		in   Input
		p    Params
		keys string // sorted top-level keys
	}{
		{"window chosen", in2(40, &fiveReset, 80, &weekReset, thu), params(nil),
			"constrained_window,delay_seconds,deviation_percent,five_hour,projection,seven_day,should_throttle,strategy"},
		{"no window", in2(40, nil, 80, nil, thu), params(nil),
			"constrained_window,delay_seconds,deviation_percent,five_hour,seven_day,should_throttle"},
		{"one stale", in2(40, ptr(thu.Add(-time.Hour)), 80, &weekReset, thu), params(nil),
			"constrained_window,delay_seconds,deviation_percent,error,five_hour,projection,seven_day,should_throttle,stale_data,strategy"},
		{"both stale", in2(40, ptr(thu.Add(-time.Hour)), 80, ptr(thu.Add(-time.Hour)), thu), params(nil),
			"constrained_window,delay_seconds,deviation_percent,error,five_hour,seven_day,should_throttle,stale_data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			raw, err := json.Marshal(Decide(tt.in, tt.p))
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			if got := sortedKeys(m); got != tt.keys {
				t.Errorf("keys = %s\nwant   %s", got, tt.keys)
			}
			for _, w := range []string{"five_hour", "seven_day"} {
				var sub map[string]json.RawMessage
				json.Unmarshal(m[w], &sub)
				if got := sortedKeys(sub); got != windowKeys {
					t.Errorf("%s keys = %s, want %s", w, got, windowKeys)
				}
			}
			if p, ok := m["projection"]; ok {
				var sub map[string]json.RawMessage
				json.Unmarshal(p, &sub)
				want := "allowance,buffer_remaining,credits_remaining_pct,safe_allowance,util_if_no_throttle,util_if_throttled"
				if got := sortedKeys(sub); got != want {
					t.Errorf("projection keys = %s, want %s", got, want)
				}
			}
		})
	}
}

func TestDecisionJSONBothStale(t *testing.T) {
	t.Parallel()
	d := Decide(in2(98, ptr(thu.Add(-time.Hour)), 80.5, ptr(thu.Add(-time.Hour)), thu), DefaultParams())
	raw, _ := json.Marshal(d)
	want := `{"should_throttle":false,"delay_seconds":0,"stale_data":true,"constrained_window":null,` +
		`"deviation_percent":0,"five_hour":{"utilization":98,"target":0,"time_elapsed_pct":-1},` +
		`"seven_day":{"utilization":80.5,"target":0,"time_elapsed_pct":-1},` +
		`"error":"Both window data is stale (resets_at has passed)"}`
	if string(raw) != want {
		t.Errorf("JSON =\n%s\nwant\n%s", raw, want)
	}
}

func TestInputValidate(t *testing.T) {
	t.Parallel()
	if err := in2(10, nil, 20, nil, thu).Validate(); err != nil {
		t.Errorf("finite input rejected: %v", err)
	}
	if err := in2(math.NaN(), nil, 20, nil, thu).Validate(); err == nil || !strings.Contains(err.Error(), "five_hour") {
		t.Errorf("NaN 5-hour util: %v", err)
	}
}

func sortedKeys(m map[string]json.RawMessage) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}
