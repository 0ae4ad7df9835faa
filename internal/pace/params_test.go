package pace

import (
	"errors"
	"testing"
)

func TestDefaultParams(t *testing.T) {
	t.Parallel()
	// pacing.md hook-level defaults: preload 12, buffer 95, 5/350,
	// threshold 0, both limits on.
	want := Params{PreloadHours: 12, SafetyBufferPct: 95, BaseDelay: 5, MaxDelay: 350,
		ThresholdPercent: 0, WeeklyLimit: true, FiveHourLimit: true}
	if got := DefaultParams(); got != want {
		t.Errorf("DefaultParams() = %+v, want %+v", got, want)
	}
	if err := want.Validate(); err != nil {
		t.Errorf("defaults invalid: %v", err)
	}
}

func TestParamsValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		f    func(*Params)
		key  string // "" = valid
	}{
		{"no preload", func(p *Params) { p.PreloadHours = 0 }, ""},
		{"whole week preloaded", func(p *Params) { p.PreloadHours = 120 }, ""},
		{"negative preload", func(p *Params) { p.PreloadHours = -1 }, "preload_hours"},
		{"preload beyond the weekday hours", func(p *Params) { p.PreloadHours = 120.5 }, "preload_hours"},
		{"buffer 100", func(p *Params) { p.SafetyBufferPct = 100 }, ""},
		{"buffer 0", func(p *Params) { p.SafetyBufferPct = 0 }, "safety_buffer_pct"},
		{"buffer over 100", func(p *Params) { p.SafetyBufferPct = 101 }, "safety_buffer_pct"},
		{"base 0", func(p *Params) { p.BaseDelay = 0 }, ""},
		{"negative base", func(p *Params) { p.BaseDelay = -1 }, "base_delay"},
		{"max equal to base", func(p *Params) { p.BaseDelay, p.MaxDelay = 30, 30 }, "max_delay"},
		{"max one above base", func(p *Params) { p.BaseDelay, p.MaxDelay = 30, 31 }, ""},
		{"threshold 100", func(p *Params) { p.ThresholdPercent = 100 }, ""},
		{"negative threshold", func(p *Params) { p.ThresholdPercent = -0.1 }, "threshold_percent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := params(tt.f).Validate()
			var pe *ParamError
			switch {
			case tt.key == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tt.key != "" && (!errors.As(err, &pe) || pe.Key != tt.key):
				t.Errorf("error = %v, want one for %s", err, tt.key)
			}
		})
	}
}

func TestCapMaxDelay(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		max, timeout int
		want         int
		capped       bool
	}{
		// 360 s PostToolUse timeout - 10 s = 350: the default fits exactly.
		{"default fits the 360 s timeout", 350, 360, 350, false},
		{"one above is capped", 351, 360, 350, true},
		{"a shorter timeout caps harder", 350, 120, 110, true},
		{"a smaller max is kept", 100, 360, 100, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, capped := CapMaxDelay(params(func(p *Params) { p.MaxDelay = tt.max }), tt.timeout)
			if got.MaxDelay != tt.want || capped != tt.capped {
				t.Errorf("CapMaxDelay(%d, %d) = %d, %v; want %d, %v", tt.max, tt.timeout, got.MaxDelay, capped, tt.want, tt.capped)
			}
		})
	}
}
