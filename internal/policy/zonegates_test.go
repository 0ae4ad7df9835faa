package policy

import (
	"maps"
	"slices"
	"testing"
)

// A zone-gated rule (zonegates.go) must never fire on a line whose every
// path lies in the project or temp: every rule case and corpus line is
// run through each gated rule directly, and where it fires the gate must
// be open.
func TestZoneGatesAreSound(t *testing.T) {
	checkGatesSound(t, "zonegates.go", "", allRules,
		func(r *prepared) bool { return r.zoned }, slices.Collect(maps.Keys(builtinZoneGates())),
		func(r *prepared, f *Facts) string {
			if sh := shapeOf(f); (&Env{F: f}).zoneGateOpen(&sh) {
				return ""
			}
			return "its paths all lie in the project or temp: drop its entry in zonegates.go"
		})
}

// The gate closes on a line whose paths are the project's or temp's, and
// opens on one that names a path elsewhere or carries code.
func TestZoneGateOpen(t *testing.T) {
	for in, want := range map[string]bool{
		"rm -rf ./build dist": false, "go test ./... | tee out.log": false, "rm -rf /tmp/x": false, "ls -la": false,
		"rm -rf ~/x": true, "rm -rf build ~/.warden": true, "cp a /etc/x": true, "rm -rf .git": true, "rm -rf .claude": true,
		`bash -c "rm -rf build"`: true, "ssh h rm -rf build": true, "rm -rf $DIR": true, "cat id_rsa": true, "echo x >> ~/.bashrc": true,
	} {
		c, _ := CaseCall(in, TestHome, TestProject)
		f := withoutDevPlaces(Normalize(c).WithoutHelp())
		sh := shapeOf(f)
		if got := (&Env{F: f}).zoneGateOpen(&sh); got != want {
			t.Errorf("zoneGateOpen(%q) = %v, want %v", in, got, want)
		}
	}
}
