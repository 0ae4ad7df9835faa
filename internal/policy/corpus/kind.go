package corpus

import (
	"github.com/warden-dev/warden/internal/callfacts"
)

// What a case does, derived from the one reading of its call, so recall
// can be read per effect and per zone (how hidden corpora are judged:
// by effect × zone × disguise) without tagging every line by hand.

// noZone is the zone of a case whose effect is on no path (a fetch run,
// a secret sent).
const noZone = "-"

// kindOf is a case's effect and zone: its strongest effect on a path (in
// the verdict table's order) with that path's zone, else the strongest
// effect of its commands: code fetched and run, other code run, processes
// stopped, a delete or write on no known path, a network request, or a
// read.
func kindOf(f *callfacts.Facts) (effect, zone string) {
	if ts := f.Touches(); len(ts) > 0 {
		best := ts[0]
		for _, t := range ts[1:] {
			if rank(t.Effect) < rank(best.Effect) {
				best = t
			}
		}
		return string(best.Effect), string(best.Zone)
	}
	strongest := callfacts.EffectNone
	network := false
	for i := range f.Commands {
		c := &f.Commands[i]
		if c.Feed != "" && callfacts.IsFetcher(c.Feed) {
			return "run-fetched", noZone
		}
		if effectOrder[c.Effect] > effectOrder[strongest] {
			strongest = c.Effect
		}
		network = network || callfacts.IsFetcher(c.Name)
	}
	switch {
	case strongest != callfacts.EffectNone:
		return commandEffects[strongest], noZone
	case network:
		return "network", noZone
	}
	return "read", noZone
}

// commandEffects name a command's effect when it touches no path, apart
// from the path effects of the same word (a delete on a path is "delete").
var commandEffects = map[callfacts.Effect]string{callfacts.EffectWrite: "change (no path)",
	callfacts.EffectDelete: "delete (no path)", callfacts.EffectStop: "stop", callfacts.EffectRun: "run"}

// effectOrder ranks command effects, weakest first (as callfacts lists them).
var effectOrder = map[callfacts.Effect]int{callfacts.EffectNone: 0, callfacts.EffectWrite: 1,
	callfacts.EffectDelete: 2, callfacts.EffectStop: 3, callfacts.EffectRun: 4}

// rank is a path effect's place in the verdict table, strongest first.
func rank(e callfacts.PathEffect) int {
	for i, p := range callfacts.PathEffects() {
		if p == e {
			return i
		}
	}
	return len(callfacts.PathEffects())
}
