package policy

import "strings"

// A process named for a test double — a simulator, mock, fake, stub or
// software-in-the-loop stand-in (plc_sim.py, mock-server, fake_sensor,
// px4-sitl) — stands in for the real equipment or service while the
// agent develops: the agent started it, and ending it touches nothing
// real. So its name counts as a dev tool's (devProcName). A bare
// "simulator" or "emulator" is not one: those are the user's own
// applications (the iOS Simulator, the Android emulator).

// testDoubleParts are the words that name a stand-in.
var testDoubleParts = map[string]bool{"mock": true, "mocks": true, "fake": true, "fakes": true, "stub": true, "stubs": true,
	"dummy": true, "sim": true, "sitl": true, "harness": true, "testbed": true}

// testDoubleName: w, split at '-', '_' and '.', has a part that names a
// test double, beside at least one other part or as the whole word
// (mock, stub; not sim alone, a SIM card's tools).
func testDoubleName(w string) bool {
	parts := strings.FieldsFunc(w, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	if len(parts) == 1 {
		return parts[0] != "sim" && parts[0] != "sitl" && testDoubleParts[parts[0]]
	}
	for _, p := range parts {
		if testDoubleParts[p] {
			return true
		}
	}
	return false
}
