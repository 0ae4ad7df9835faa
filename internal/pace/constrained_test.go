package pace

import "testing"

func TestMostConstrained(t *testing.T) {
	t.Parallel()
	on := func(util, target float64) Candidate { return Candidate{Active: true, Util: util, Target: target} }
	off := Candidate{Util: 99, Target: 0} // inactive: its figures must not count
	tests := []struct {
		name        string
		five, seven Candidate
		want        WindowName // "" = none
		deviation   float64
	}{
		{"neither active", off, off, "", 0},
		// 30 - 20 = 10.
		{"only 5-hour active", on(30, 20), off, FiveHour, 10},
		// 40 - 55 = -15: a window under target is still chosen alone.
		{"only 7-day active, under target", off, on(40, 55), SevenDay, -15},
		// 5 h: 50 - 40 = 10; 7 d: 30 - 25 = 5.
		{"5-hour more over", on(50, 40), on(30, 25), FiveHour, 10},
		// 5 h: 20 - 40 = -20; 7 d: 30 - 25 = 5.
		{"7-day more over", on(20, 40), on(30, 25), SevenDay, 5},
		// 5 h: 45 - 40 = 5; 7 d: 30 - 25 = 5: tie goes to 5-hour.
		{"tie goes to 5-hour", on(45, 40), on(30, 25), FiveHour, 5},
		// 5 h: 5; 7 d: 30.001 - 25 = 5.001.
		{"7-day wins by a hair", on(45, 40), on(30.001, 25), SevenDay, 5.001},
		// Both under: -3 beats -10.
		{"both under target: the less under wins", on(10, 20), on(7, 10), SevenDay, -3},
		{"both exactly on target: 5-hour", on(20, 20), on(10, 10), FiveHour, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w, dev := MostConstrained(tt.five, tt.seven)
			var got WindowName
			if w != nil {
				got = *w
			}
			if got != tt.want {
				t.Errorf("window = %q, want %q", got, tt.want)
			}
			near(t, "deviation", dev, tt.deviation)
		})
	}
}
