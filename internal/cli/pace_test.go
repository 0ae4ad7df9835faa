package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// paceArgs is Thursday 2025-11-06 12:00 UTC with
//
//	5-hour: resets 14:30, so 2.5 h of 5 elapsed: target 50, time 50
//	7-day:  resets Mon 11-10 00:00, started Mon 11-03 00:00: 84 of 120
//	        weekday hours elapsed: target 84/120*100 = 70; 84 of 168 h
//	        left: time 50
func paceArgs(fiveUtil, fiveReset, sevenUtil, sevenReset string, extra ...string) []string {
	args := []string{"pace", "--at", "2025-11-06T12:00:00Z",
		"--five-hour-util", fiveUtil, "--five-hour-resets-at", fiveReset,
		"--seven-day-util", sevenUtil, "--seven-day-resets-at", sevenReset}
	return append(args, extra...)
}

func runPace(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, &out, &errb)
	return out.String(), errb.String(), code
}

func paceJSON(t *testing.T, args []string) map[string]any {
	t.Helper()
	out, stderr, code := runPace(t, args...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return m
}

// wantJSON compares every expected key (a nested map is compared key by
// key, numbers to 1e-9) and that no other key is present.
func wantJSON(t *testing.T, path string, got, want map[string]any) {
	t.Helper()
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s%s: unexpected key (value %v)", path, k, got[k])
		}
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			t.Errorf("%s%s: missing", path, k)
			continue
		}
		switch w := w.(type) {
		case map[string]any:
			gm, ok := g.(map[string]any)
			if !ok {
				t.Errorf("%s%s = %v, want an object", path, k, g)
				continue
			}
			wantJSON(t, path+k+".", gm, w)
		case float64:
			if gf, ok := g.(float64); !ok || math.Abs(gf-w) > 1e-9 {
				t.Errorf("%s%s = %v, want %v", path, k, g, w)
			}
		default:
			if g != w {
				t.Errorf("%s%s = %v (%T), want %v (%T)", path, k, g, g, w, w)
			}
		}
	}
}

func TestPaceJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want map[string]any
	}{
		// 5-hour dev 40-50 = -10, 7-day dev 80-70 = 10: 7-day.
		// safe 70*0.95 = 66.5, overage 13.5; elapsed 70 % of 168 h =
		// 117.6 h; burn 80/117.6; 84 h left; target burn (95-80)/84;
		// slowdown 15*117.6/(84*80) = 0.2625; multiplier 20:
		// int(5*(1/0.2625-1)*20) = int(280.95) = 280, overage < 20: gradual.
		// no-throttle 80 + 80/117.6*84 = 137.142857...; throttled 80+15 = 95.
		{"7-day window throttles", paceArgs("40", "2025-11-06T14:30:00Z", "80", "2025-11-10T00:00:00Z", "--json"),
			map[string]any{
				"should_throttle": true, "delay_seconds": 280.0, "constrained_window": "7-day",
				"deviation_percent": 10.0,
				"five_hour":         map[string]any{"utilization": 40.0, "target": 50.0, "time_elapsed_pct": 50.0},
				"seven_day":         map[string]any{"utilization": 80.0, "target": 70.0, "time_elapsed_pct": 50.0},
				"strategy":          "gradual",
				"projection": map[string]any{"allowance": 70.0, "safe_allowance": 66.5, "buffer_remaining": -13.5,
					"credits_remaining_pct": 20.0, "util_if_no_throttle": 80 + 80/117.6*84, "util_if_throttled": 95.0},
			}},
		// 5-hour dev 60-50 = 10, 7-day 75-70 = 5: 5-hour. burn 60/2.5 = 24,
		// target (95-60)/2.5 = 14, multiplier 40 (2.5 h left):
		// int(5*(24/14-1)*40) = int(142.86) = 142; overage 12.5: gradual.
		// With base 10: int(285.71) = 285.
		{"5-hour window with base delay 10", paceArgs("60", "2025-11-06T14:30:00Z", "75", "2025-11-10T00:00:00Z", "--json", "--base-delay", "10"),
			map[string]any{
				"should_throttle": true, "delay_seconds": 285.0, "constrained_window": "5-hour",
				"deviation_percent": 10.0,
				"five_hour":         map[string]any{"utilization": 60.0, "target": 50.0, "time_elapsed_pct": 50.0},
				"seven_day":         map[string]any{"utilization": 75.0, "target": 70.0, "time_elapsed_pct": 50.0},
				"strategy":          "gradual",
				"projection": map[string]any{"allowance": 50.0, "safe_allowance": 47.5, "buffer_remaining": -12.5,
					"credits_remaining_pct": 40.0, "util_if_no_throttle": 120.0, "util_if_throttled": 95.0},
			}},
		// The 5-hour reset passed 1 h ago (> 300 s): stale, target 0, time
		// -1; the 7-day window decides as in the first case.
		{"stale 5-hour figures", paceArgs("40", "2025-11-06T11:00:00Z", "80", "2025-11-10T00:00:00Z", "--json"),
			map[string]any{
				"should_throttle": true, "delay_seconds": 280.0, "constrained_window": "7-day",
				"deviation_percent": 10.0,
				"five_hour":         map[string]any{"utilization": 40.0, "target": 0.0, "time_elapsed_pct": -1.0},
				"seven_day":         map[string]any{"utilization": 80.0, "target": 70.0, "time_elapsed_pct": 50.0},
				"strategy":          "gradual",
				"projection": map[string]any{"allowance": 70.0, "safe_allowance": 66.5, "buffer_remaining": -13.5,
					"credits_remaining_pct": 20.0, "util_if_no_throttle": 80 + 80/117.6*84, "util_if_throttled": 95.0},
				"stale_data": true, "error": "5-hour window data is stale (resets_at has passed)",
			}},
		// Both limits off: no window, null, deviation 0, no strategy or
		// projection; targets still reported.
		{"both limits off", paceArgs("60", "2025-11-06T14:30:00Z", "75", "2025-11-10T00:00:00Z", "--json",
			"--weekly-limit=false", "--five-hour-limit=false"),
			map[string]any{
				"should_throttle": false, "delay_seconds": 0.0, "constrained_window": nil,
				"deviation_percent": 0.0,
				"five_hour":         map[string]any{"utilization": 60.0, "target": 50.0, "time_elapsed_pct": 50.0},
				"seven_day":         map[string]any{"utilization": 75.0, "target": 70.0, "time_elapsed_pct": 50.0},
			}},
		// Reset times given in +01:00 are the same instants.
		{"offsets are read as instants", paceArgs("60", "2025-11-06T15:30:00+01:00", "75", "2025-11-10T01:00:00+01:00", "--json",
			"--weekly-limit=false"),
			map[string]any{
				// 7-day left out: the 5-hour window decides, delay 142.
				"should_throttle": true, "delay_seconds": 142.0, "constrained_window": "5-hour",
				"deviation_percent": 10.0,
				"five_hour":         map[string]any{"utilization": 60.0, "target": 50.0, "time_elapsed_pct": 50.0},
				"seven_day":         map[string]any{"utilization": 75.0, "target": 70.0, "time_elapsed_pct": 50.0},
				"strategy":          "gradual",
				"projection": map[string]any{"allowance": 50.0, "safe_allowance": 47.5, "buffer_remaining": -12.5,
					"credits_remaining_pct": 40.0, "util_if_no_throttle": 120.0, "util_if_throttled": 95.0},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			wantJSON(t, "", paceJSON(t, tt.args), tt.want)
		})
	}
}

func TestPaceText(t *testing.T) {
	t.Parallel()
	args := paceArgs("40", "2025-11-06T14:30:00Z", "80", "2025-11-10T00:00:00Z")
	out, _, code := runPace(t, args...)
	for _, want := range []string{"Thursday", "Throttle: wait 280 s", "strategy gradual", "the 7-day window, 10.00 points above"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("summary (exit %d) lacks %q:\n%s", code, want, out)
		}
	}
	out, _, code = runPace(t, append(args, "--explain")...)
	for _, want := range []string{
		"7-day window is the most constrained",
		"84.0 of its 120 weekday hours",
		"Safe allowance: 70.00% × 95% = 66.50%",
		"13.50 points above",
		"counted as 117.60 h of 168",
		"slowdown factor of 0.2625",
		"int(280.95)",
		"multiplier is 20",
		"strategy gradual because the overage is 5 to under 20 points",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--explain (exit %d) lacks %q:\n%s", code, want, out)
		}
	}
}

func TestPaceMaxDelayCapped(t *testing.T) {
	t.Parallel()
	// util 70 on the 5-hour window: int(5*(28/10-1)*40) = 360 >= 350;
	// --max-delay 400 is lowered to 360-10 = 350, so 350 (emergency).
	args := paceArgs("70", "2025-11-06T14:30:00Z", "10", "2025-11-10T00:00:00Z", "--json", "--max-delay", "400")
	out, stderr, code := runPace(t, args...)
	if code != 0 || !strings.Contains(stderr, "--max-delay 400 lowered to 350") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var m map[string]any
	json.Unmarshal([]byte(out), &m)
	if m["delay_seconds"] != 350.0 || m["strategy"] != "emergency" {
		t.Errorf("delay %v, strategy %v; want 350, emergency", m["delay_seconds"], m["strategy"])
	}
}

func TestPaceErrors(t *testing.T) {
	t.Parallel()
	ok := paceArgs("40", "2025-11-06T14:30:00Z", "80", "2025-11-10T00:00:00Z")
	tests := []struct {
		name string
		args []string
		want []string // all in stderr
	}{
		{"json without figures", []string{"pace", "--json"}, []string{"need the usage figures", "--five-hour-util", "--seven-day-util"}},
		{"one utilisation", []string{"pace", "--five-hour-util", "3"}, []string{"missing --seven-day-util", "e.g. --five-hour-util 40 --seven-day-util 60"}},
		{"reset without utilisation", []string{"pace", "--five-hour-resets-at", "none"}, []string{"missing --five-hour-util and --seven-day-util"}},
		{"util above 100", append(ok, "--five-hour-util", "150"), []string{"--five-hour-util is 150", "0 to 100"}},
		{"negative util", append(ok, "--seven-day-util", "-1"), []string{"--seven-day-util is -1", "0 to 100"}},
		{"util not a number", append(ok, "--seven-day-util", "lots"), []string{`"--seven-day-util"`, "not a number"}},
		{"NaN util", append(ok, "--seven-day-util", "NaN"), []string{`"--seven-day-util"`, "not a number"}},
		{"bad reset time", append(ok, "--five-hour-resets-at", "14:30"), []string{`"--five-hour-resets-at"`, "RFC 3339", "or none"}},
		{"bad --at", append(ok, "--at", "2025-11-06 12:00"), []string{`"--at"`, "RFC 3339"}},
		{"bad bool", append(ok, "--weekly-limit=maybe"), []string{`"--weekly-limit"`, "true or false"}},
		{"fractional base delay", append(ok, "--base-delay", "2.5"), []string{`"--base-delay"`, "whole number"}},
		{"max not above base", append(ok, "--base-delay", "20", "--max-delay", "20"), []string{"--max-delay is 20", "than --base-delay (20)"}},
		{"safety buffer 0", append(ok, "--safety-buffer-pct", "0"), []string{"--safety-buffer-pct is 0"}},
		{"preload too long", append(ok, "--preload-hours", "200"), []string{"--preload-hours is 200", "0 to 120"}},
		{"negative threshold", append(ok, "--threshold-percent", "-2"), []string{"--threshold-percent is -2"}},
		{"json and explain", append(ok, "--json", "--explain"), []string{"--explain", "--json", "one of them"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, stderr, code := runPace(t, tt.args...)
			if code != 1 || out != "" {
				t.Errorf("exit %d, stdout %q; want 1 and nothing", code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q: %s", w, stderr)
				}
			}
		})
	}
}

func TestPaceSimulateNeedsTheHelper(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	t.Setenv("PATH", t.TempDir()) // no warden-helper anywhere
	_, stderr, code := runPace(t, "pace", "simulate", "--steady", "60")
	if code == 0 || !strings.Contains(stderr, "warden-helper") || !strings.Contains(stderr, "make install") {
		t.Errorf("exit %d, stderr %q: a missing helper must be named with the fix", code, stderr)
	}
}

func TestPaceWithoutFiguresUsesTheStore(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	stdout, stderr, code := runPace(t, "pace")
	if code != 0 || !strings.Contains(stdout, "no subscription limits known") || !strings.Contains(stdout, "warden pace --explain") {
		t.Fatalf("exit %d: %q %q", code, stdout, stderr)
	}
	// --explain says more than the short form: where figures come from and
	// how to try a what-if.
	explained, _, code := runPace(t, "pace", "--explain")
	for _, want := range []string{"How figures reach warden", "passes rate_limits", "asks Anthropic's OAuth usage endpoint", "warden pace --five-hour-util 40 --seven-day-util 60 --explain"} {
		if code != 0 || !strings.Contains(explained, want) || strings.Contains(stdout, want) {
			t.Errorf("pace --explain (exit %d) should add %q:\n%s", code, want, explained)
		}
	}
}

// The README's what-if gives only the two utilisations: the reset times
// default to mid-window, said on stderr, and the decision is the one for
// those explicit reset times.
func TestPaceWhatIfDefaultsResetTimesToMidWindow(t *testing.T) {
	t.Parallel()
	at := "2025-11-06T12:00:00Z"
	out, stderr, code := runPace(t, "pace", "--at", at, "--five-hour-util", "40", "--seven-day-util", "80", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"--five-hour-resets-at not given: assuming 2025-11-06T14:30:00Z", "--seven-day-resets-at not given: assuming 2025-11-10T00:00:00Z"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q: %s", want, stderr)
		}
	}
	explicit, _, _ := runPace(t, paceArgs("40", "2025-11-06T14:30:00Z", "80", "2025-11-10T00:00:00Z", "--json")...)
	if out != explicit {
		t.Errorf("defaulted what-if differs from the explicit one:\n%s\nvs\n%s", out, explicit)
	}
}

// "below its target" beside "wait N s" must say what the target is and
// where throttling starts.
func TestPaceSummaryNamesTheTargetAndTheSafeAllowance(t *testing.T) {
	t.Parallel()
	out, _, code := runPace(t, paceArgs("20", "none", "60", "2025-11-10T00:00:00Z")...)
	for _, want := range []string{"the allowance, 70.00%: what an even pace would have used by now", "Throttling starts above the safe allowance, 66.50%", "60.00% used is under it"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}

// A what-if uses the pacing settings of config.toml, as the hooks do, and a
// flag overrides its key: a 50 % safety buffer throttles figures the
// defaults (95 %) leave alone, and --safety-buffer-pct 95 puts them back.
func TestPaceWhatIfUsesConfig(t *testing.T) {
	home := t.TempDir()
	t.Setenv("WARDEN_HOME", home)
	// 5-hour: target 50 at paceArgs' moment; 45 % used is under the
	// default safe allowance (47.5) and over a 50 % buffer's (25).
	args := paceArgs("45", "2025-11-06T14:30:00Z", "10", "2025-11-10T00:00:00Z", "--json")
	throttles := func(args []string) bool { return paceJSON(t, args)["should_throttle"].(bool) }
	if throttles(args) {
		t.Fatal("no config: the defaults throttle 45 % of a 50 % allowance")
	}
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("[pacing]\nsafety_buffer_pct = 50\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if !throttles(args) {
		t.Error("config safety_buffer_pct = 50: the what-if ignored it")
	}
	if throttles(append(args, "--safety-buffer-pct", "95")) {
		t.Error("--safety-buffer-pct 95 did not override the config")
	}
}
