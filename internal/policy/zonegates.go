package policy

import (
	"slices"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Zone gates: a rule about paths outside the project (warden's and the
// agent's files, start-up and autostart files, system and shared
// storage, home data) is woken by FactPath, FactWrite or FactTouch,
// facts every rm -rf ./build or go test | tee out.log has. Such a rule
// can fire only on a line that names a path outside the project and
// temp: a shell line whose every path (Facts.Paths, read or written or
// an argument) and every effect on a path (Touches) lies in the project
// or temp, that carries no code (payload, feed, fed text, a derivation),
// runs nothing under a wrapper (ssh: the paths are another machine's)
// and was read whole, closes the gate, and the rules listed here do not
// run (Env.zoneGateOpen, read once per call). Each entry is read from
// the rule's Match: what it judges is a path in a zone other than
// project and temp (the repo's .git, the agent's .claude and CLAUDE.md,
// a key file by its name are zones of their own). TestZoneGatesAreSound
// runs every listed rule over the rule cases and every corpus line, and
// fails when one fires with its gate closed.
var builtinZoneGates = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"core.shell:rm-root":                   true,
		"core.destroy:rm-system":               true,
		"core.destroy:rm-outside":              true,
		"core.destroy:system-file":             true,
		"core.shell:dd-device":                 true,
		"core.git:repo-metadata":               true,
		"core.paths:account-ssh":               true,
		"core.self:hook-scripts":               true,
		"core.secrets:print-credential-file":   true,
		"core.secrets:print-named-secret-file": true,
		"core.zones:autostart":                 true,
		"core.zones:path-shadow":               true,
		"core.zones:session-loader":            true,
		"core.zones:shared-output":             true,
		"core.zones:shared-convert":            true,
		"core.zones:shared-overwrite":          true,
		"core.zones:home-data-rewrite":         true,
		"core.zones:startup-other-user":        true,
		"core.zones:home-data-batch-edit":      true,
		"core.zones:unknown-batch-edit":        true,
		"core.local:agent-config-write":        true,
		"core.local:pth-plant":                 true,
		"core.local:persisted-downgrade":       true,
		"core.local:startup-background":        true,
	}
})

// tameZones are the zones that close the gate.
var tameZones = zonesOf(callfacts.ZoneProject, callfacts.ZoneTemp)

// zoneGateFacts are the facts that keep the gate open: code whose paths
// the line does not list, another machine's paths, a reading cut short.
const zoneGateFacts = FactPayload | FactFeed | FactFeedUnknown | FactDerivation | FactWrapped | FactNotShell | FactTruncated | FactInterp

// zoneGateOpen reports whether a zone-gated rule can fire on the call:
// whether it names a path, or has an effect on one, outside the project
// and temp, or is a line whose paths are not all listed.
func (e *Env) zoneGateOpen(s *shape) bool {
	if e.zoneGate == 0 {
		e.zoneGate = 1
		if e.zonesOutside(s) {
			e.zoneGate = 2
		}
	}
	return e.zoneGate == 2
}

func (e *Env) zonesOutside(s *shape) bool {
	f := e.F
	if s.facts&zoneGateFacts != 0 || f.ParseError != "" || f.Obfuscated || (f.Tool != "Bash" && f.Tool != "PowerShell") {
		return true
	}
	if e.touchZones()&^tameZones != 0 {
		return true
	}
	if slices.ContainsFunc(e.Touches(), func(tc callfacts.Touch) bool { return homeOutsideProject(tc.Path, f.Home, f.Project) }) {
		return true
	}
	return slices.ContainsFunc(f.Paths, func(p PathRef) bool {
		return homeOutsideProject(p.Path, f.Home, f.Project) || zoneBit(callfacts.ZoneOf(p.Path, f.Home, f.Project))&tameZones == 0
	})
}

// homeOutsideProject: p lies under home but not in the project. A
// scratch folder of home (~/tmp) is temp, but the rules about the
// user's files (a credentials file read, a file named for a secret)
// read any path under home but the project's: such a path opens the
// gate whatever its zone.
func homeOutsideProject(p, home, project string) bool {
	if home == "" || home == "/" || !strings.HasPrefix(p, home+"/") {
		return false
	}
	return project == "" || project == home || !(p == project || strings.HasPrefix(p, project+"/"))
}
