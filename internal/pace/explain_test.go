package pace

import (
	"strings"
	"testing"
	"time"
)

// Explain and Summary name the rule that settled each decision. The
// figures are those of the TestDecide rows with the same inputs.
func TestExplain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   Input
		p    Params
		want []string
	}{
		{"adaptive delay on the 7-day window", in2(40, &fiveReset, 80, &weekReset, thu), params(nil), []string{
			"Throttle: wait 280 s", "7-day window is the most constrained", "84.0 of its 120 weekday hours",
			"first 12 weekday hours are preloaded at 10.00%", "66.50%", "13.50 points above", "int(280.95)",
			"multiplier is 20 because 3 h or more remain", "strategy gradual"}},
		{"weekend emergency on the 5-hour window", in2(48, ptr(at(8, 14, 30, 0)), 50, &weekReset, at(8, 12, 0, 0)), params(nil), []string{
			"Saturday", "5-hour one included", "max_delay, 350 s (emergency)"}},
		{"no time left", in2(98, ptr(thu.Add(-100*time.Second)), 60, &weekReset, thu), params(nil), []string{
			"resets now (no time left)", "350 s (emergency)"}},
		{"under budget", in2(40, &fiveReset, 80, &weekReset, thu), params(func(p *Params) { p.WeeklyLimit = false }), []string{
			"No throttling.", "takes no part because weekly_limit is off", "only one taking part", "within the safe allowance: no delay"}},
		{"slowdown at least 0.95", in2(48, ptr(at(7, 19, 30, 0)), 50, &weekReset, at(7, 17, 0, 0)), params(nil), []string{
			"slowdown factor of 0.9792", "0.95 or more", "dropped to 0"}},
		{"stale and inactive windows", in2(40, ptr(thu.Add(-time.Hour)), 80, nil, thu), params(nil), []string{
			"stale", "no reset time", "No window takes part", "Note: 5-hour window data is stale"}},
		{"threshold", in2(40, &fiveReset, 80, &weekReset, thu), params(func(p *Params) { p.ThresholdPercent = 15 }), []string{
			"more than 15 points over the safe allowance", "within the safe allowance: no delay"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := Decide(tt.in, tt.p)
			text := Summary(tt.in, d) + strings.Join(Explain(tt.in, tt.p, d), "\n")
			wantAll(t, "explanation", text, tt.want...)
		})
	}
}
