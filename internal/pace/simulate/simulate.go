// Package simulate replays a usage profile through the pacing algorithm
// (`warden pace simulate`): tool calls at a given rate in working hours,
// each costing utilisation points, once without throttling and once with
// warden's delays, over a 7-day window, and draws the result (SVG).
package simulate

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"time"

	"github.com/warden-dev/warden/internal/pace"
)

// Profile is how a user works.
type Profile struct {
	// CallsPerHour is the tool-call rate while working, without delays.
	CallsPerHour float64 `json:"calls_per_hour"`
	// CostPerCall is the 7-day utilisation (points) one call costs.
	CostPerCall float64 `json:"cost_per_call"`
	// FiveHourCostPerCall is the 5-hour utilisation (points) one call costs.
	FiveHourCostPerCall float64 `json:"five_hour_cost_per_call"`
	// StartHour and EndHour (UTC, 0-24) bound the working day; equal
	// values mean around the clock.
	StartHour int `json:"start_hour"`
	EndHour   int `json:"end_hour"`
	// Weekends: work on Saturday and Sunday too.
	Weekends bool `json:"weekends"`
	// Sessions working in parallel (fair sharing), default 1.
	Sessions int `json:"sessions"`
}

// DefaultProfile: 120 calls an hour, 09-18 UTC on weekdays.
func DefaultProfile() Profile {
	return Profile{CallsPerHour: 120, CostPerCall: 0.012, FiveHourCostPerCall: 0.12, StartHour: 9, EndHour: 18, Sessions: 1}
}

// Steady is around-the-clock work at calls per hour, every day.
func Steady(callsPerHour float64) Profile {
	p := DefaultProfile()
	p.CallsPerHour, p.StartHour, p.EndHour, p.Weekends = callsPerHour, 0, 0, true
	return p
}

// LoadProfile reads a JSON profile; missing keys keep DefaultProfile's.
func LoadProfile(path string) (Profile, error) {
	p := DefaultProfile()
	b, err := os.ReadFile(path)
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return p, fmt.Errorf("%s: %w", path, err)
	}
	return p, p.Validate()
}

// Validate reports a profile the simulation cannot use.
func (p Profile) Validate() error {
	switch {
	case !(p.CallsPerHour > 0) || p.CallsPerHour > 36000:
		return fmt.Errorf("calls_per_hour is %g; use more than 0 and at most 36000", p.CallsPerHour)
	case p.CostPerCall < 0 || p.FiveHourCostPerCall < 0 || math.IsNaN(p.CostPerCall) || math.IsNaN(p.FiveHourCostPerCall):
		return fmt.Errorf("costs per call must be 0 or more points")
	case p.StartHour < 0 || p.StartHour > 24 || p.EndHour < 0 || p.EndHour > 24:
		return fmt.Errorf("start_hour and end_hour are hours 0 to 24 (UTC)")
	case p.Sessions < 0 || p.Sessions > 64:
		return fmt.Errorf("sessions is %d; use 1 to 64", p.Sessions)
	}
	return nil
}

func (p Profile) working(t time.Time) bool {
	t = t.UTC()
	if !p.Weekends && (t.Weekday() == time.Saturday || t.Weekday() == time.Sunday) {
		return false
	}
	if p.StartHour == p.EndHour {
		return true
	}
	h := t.Hour()
	if p.StartHour < p.EndHour {
		return h >= p.StartHour && h < p.EndHour
	}
	return h >= p.StartHour || h < p.EndHour
}

// Sample is the state at one moment.
type Sample struct {
	Time                 time.Time
	Util, UtilNoThrottle float64 // 7-day utilisation
	Five, FiveNoThrottle float64 // 5-hour utilisation
	Allowance, Safe      float64 // 7-day allowance and safe allowance
	Delay                int     // current delay per call (throttled run)
}

// Result is a simulation.
type Result struct {
	Start, End time.Time
	Profile    Profile
	Params     pace.Params
	Samples    []Sample
	// Hit100 is when the 7-day window reached 100 %, nil if never; the
	// 5-hour counterparts say when the first 5-hour window did.
	Hit100, Hit100NoThrottle       *time.Time
	Hit5h100, Hit5h100NoThrottle   *time.Time
	Calls, CallsNoThrottle         int
	TotalDelay                     time.Duration
	FinalUtil, FinalUtilNoThrottle float64
	LimitedTime, LimitedNoThrottle time.Duration // time spent blocked at a 100 % limit
}

type run struct {
	p         Profile
	params    pace.Params
	throttle  bool
	util      float64 // 7 d
	five      float64
	fiveEnd   time.Time
	next      time.Time // next call
	calls     int
	delay     time.Duration
	hit, hit5 *time.Time
	limited   time.Duration
	lastDly   int
}

// Run simulates days from start (the 7-day window starts at start; 5-hour
// windows start at the first call after the previous one ended).
func Run(p Profile, params pace.Params, start time.Time, days int) Result {
	if p.Sessions <= 0 {
		p.Sessions = 1
	}
	start = start.UTC()
	end := start.Add(time.Duration(days) * 24 * time.Hour)
	weekReset := start.Add(168 * time.Hour)
	a := &run{p: p, params: params, throttle: true, next: start}
	b := &run{p: p, params: params, throttle: false, next: start}
	res := Result{Start: start, End: end, Profile: p, Params: params}
	step := 10 * time.Second
	sampleEvery := 15 * time.Minute
	nextSample := start
	for t := start; !t.After(end); t = t.Add(step) {
		if t.After(weekReset) {
			weekReset = weekReset.Add(168 * time.Hour)
			a.util, b.util = 0, 0
		}
		for _, r := range []*run{a, b} {
			r.advance(t, step, weekReset)
		}
		if !t.Before(nextSample) {
			allow := pace.WeekdayAllowance(weekReset.Add(-168*time.Hour), t, pace.SevenDayWindowHours, params.PreloadHours)
			res.Samples = append(res.Samples, Sample{Time: t, Util: a.util, UtilNoThrottle: b.util,
				Five: a.five, FiveNoThrottle: b.five, Allowance: allow, Safe: allow * params.SafetyBufferPct / 100, Delay: a.lastDly})
			nextSample = nextSample.Add(sampleEvery)
		}
	}
	res.Hit100, res.Hit100NoThrottle = a.hit, b.hit
	res.Hit5h100, res.Hit5h100NoThrottle = a.hit5, b.hit5
	res.Calls, res.CallsNoThrottle = a.calls, b.calls
	res.TotalDelay = a.delay
	res.FinalUtil, res.FinalUtilNoThrottle = a.util, b.util
	res.LimitedTime, res.LimitedNoThrottle = a.limited, b.limited
	return res
}

// advance runs one step of length step at t: the calls due in it, each
// followed by the pacing delay in the throttled run. The sessions work in
// parallel, so the account makes Sessions calls per call interval.
func (r *run) advance(t time.Time, step time.Duration, weekReset time.Time) {
	if !r.fiveEnd.IsZero() && !t.Before(r.fiveEnd) {
		r.five, r.fiveEnd = 0, time.Time{}
	}
	if !r.p.working(t) {
		if r.next.Before(t) {
			r.next = t
		}
		return
	}
	interval := time.Duration(float64(time.Hour) / r.p.CallsPerHour)
	for !r.next.After(t) {
		if r.util >= 100 || r.five >= 100 {
			r.limited += step
			r.next = t.Add(step)
			return
		}
		if r.fiveEnd.IsZero() {
			r.fiveEnd = t.Add(5 * time.Hour)
		}
		n := float64(r.p.Sessions)
		r.util = math.Min(100, r.util+r.p.CostPerCall*n)
		r.five = math.Min(100, r.five+r.p.FiveHourCostPerCall*n)
		r.calls += r.p.Sessions
		if r.util >= 100 && r.hit == nil {
			tt := t
			r.hit = &tt
		}
		if r.five >= 100 && r.hit5 == nil {
			tt := t
			r.hit5 = &tt
		}
		gap := interval
		if r.throttle {
			fr, wr := r.fiveEnd, weekReset
			in := pace.Input{Now: t, FiveHour: pace.Window{Utilization: r.five, ResetsAt: &fr},
				SevenDay: pace.Window{Utilization: r.util, ResetsAt: &wr}}
			d := pace.Decide(in, r.params)
			dl := pace.FairShare(d.DelaySeconds, r.p.Sessions, r.params.MaxDelay)
			r.lastDly = dl
			gap += time.Duration(dl) * time.Second
			r.delay += time.Duration(dl) * time.Second * time.Duration(r.p.Sessions)
		}
		r.next = r.next.Add(gap)
		if r.next.Before(t) {
			r.next = t.Add(gap)
		}
	}
}

// Summary words the result.
func (res Result) Summary() string {
	when := func(t *time.Time) string {
		if t == nil {
			return "no"
		}
		return "yes, at " + t.Format("Mon 2006-01-02 15:04 UTC")
	}
	return fmt.Sprintf(`Simulated %s to %s (%d session(s), %g calls/h, %g points/call on 7 d, %g on 5 h).
Without throttling: %d calls; 7-day window at %.1f%%; hit 100%%: %s; first 5-hour window hit 100%%: %s; blocked at a limit %s.
With warden:        %d calls; 7-day window at %.1f%%; hit 100%%: %s; first 5-hour window hit 100%%: %s; blocked at a limit %s.
Total delay added: %s (summed over sessions).`,
		res.Start.Format(time.RFC3339), res.End.Format(time.RFC3339), res.Profile.Sessions, res.Profile.CallsPerHour,
		res.Profile.CostPerCall, res.Profile.FiveHourCostPerCall,
		res.CallsNoThrottle, res.FinalUtilNoThrottle, when(res.Hit100NoThrottle), when(res.Hit5h100NoThrottle), res.LimitedNoThrottle.Round(time.Minute),
		res.Calls, res.FinalUtil, when(res.Hit100), when(res.Hit5h100), res.LimitedTime.Round(time.Minute),
		res.TotalDelay.Round(time.Second))
}
