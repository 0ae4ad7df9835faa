package policy

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/callfacts"
	"github.com/warden-dev/warden/internal/datatable"
)

// zonesText is the verdict table, effect × zone, as data: one screen a
// reader can check at a glance (`warden policy zones` prints it).
//
//go:embed zones.txt
var zonesText string

// ZoneTable is the verdict of every effect on every zone.
type ZoneTable map[callfacts.PathEffect]map[callfacts.Zone]Mode

// builtinZones is zones.txt read once; a malformed table is a build
// error caught by the package's tests, so it panics.
var builtinZones = sync.OnceValue(func() ZoneTable {
	t, err := parseZoneTable(zonesText)
	if err != nil {
		panic(err)
	}
	return t
})

func parseZoneTable(s string) (ZoneTable, error) {
	t := ZoneTable{}
	var zones []callfacts.Zone
	err := datatable.Read("zones.txt", s, 1, func(l datatable.Line) error {
		f := l.Fields
		if zones == nil { // the header
			for _, z := range f[1:] {
				zones = append(zones, callfacts.Zone(z))
			}
			return nil
		}
		if len(f) != len(zones)+1 {
			return l.Errorf("%d cells, want %d", len(f)-1, len(zones))
		}
		row := map[callfacts.Zone]Mode{}
		for i, v := range f[1:] {
			m, ok := zoneVerdict(v)
			if !ok {
				return l.Errorf("verdict %q: want allow, ask or deny", v)
			}
			row[zones[i]] = m
		}
		t[callfacts.PathEffect(f[0])] = row
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// zoneVerdict reads a table cell or a config value.
func zoneVerdict(s string) (Mode, bool) {
	if s == "allow" {
		return Off, true
	}
	m, ok := ParseMode(s)
	return m, ok && (m == Ask || m == Deny || m == Off)
}

// ZoneEntry is one config change to the table: "effect:zone=verdict",
// effect or zone "*" for all.
type zoneEntry struct {
	effect, zone string
	verdict      Mode
}

func parseZoneEntry(s string) (zoneEntry, error) {
	k, v, ok := strings.Cut(s, "=")
	e, z, ok2 := strings.Cut(strings.TrimSpace(k), ":")
	m, ok3 := zoneVerdict(strings.TrimSpace(v))
	if !ok || !ok2 || !ok3 {
		return zoneEntry{}, fmt.Errorf("%q must be \"effect:zone=verdict\" with verdict allow, ask or deny (effect or zone may be *)", s)
	}
	if e != "*" && !slices.Contains(callfacts.PathEffects(), callfacts.PathEffect(e)) {
		return zoneEntry{}, fmt.Errorf("%q: no effect %q (want one of %v)", s, e, callfacts.PathEffects())
	}
	if z != "*" && !slices.Contains(callfacts.Zones(), callfacts.Zone(z)) {
		return zoneEntry{}, fmt.Errorf("%q: no zone %q (want one of %v)", s, z, callfacts.Zones())
	}
	return zoneEntry{effect: e, zone: z, verdict: m}, nil
}

// lintZoneEntries reports the entries of a zones key that change nothing.
func lintZoneEntries(key string, entries []string) []string {
	var out []string
	for _, s := range entries {
		if _, err := parseZoneEntry(s); err != nil {
			out = append(out, key+": "+err.Error())
		}
	}
	return out
}

// ZoneTableFor is the table an engine judges by: the built-in table, the
// user's policy.zones cells set as written (loosening allowed: only the
// user's config may set them), then policy.zones_raise cells, which only
// ever make a cell stricter (a project may add them). Bad entries are
// skipped; `warden config check` reports them.
func ZoneTableFor(o *Options) ZoneTable {
	base := builtinZones()
	if o == nil || len(o.Zones) == 0 && len(o.ZonesRaise) == 0 {
		return base
	}
	t := ZoneTable{}
	for e, row := range base {
		t[e] = map[callfacts.Zone]Mode{}
		for z, m := range row {
			t[e][z] = m
		}
	}
	t.apply(o.Zones, false)
	t.apply(o.ZonesRaise, true)
	return t
}

func (t ZoneTable) apply(entries []string, raiseOnly bool) {
	for _, s := range entries {
		en, err := parseZoneEntry(s)
		if err != nil {
			continue
		}
		for e, row := range t {
			if en.effect != "*" && en.effect != string(e) {
				continue
			}
			for z, m := range row {
				if en.zone != "*" && en.zone != string(z) {
					continue
				}
				if !raiseOnly || en.verdict.Rank() > m.Rank() {
					row[z] = en.verdict
				}
			}
		}
	}
}

// Verdict is the table's cell for an effect on a zone (allow when the
// table has none).
func (t ZoneTable) Verdict(e callfacts.PathEffect, z callfacts.Zone) Mode {
	if m, ok := t[e][z]; ok {
		return m
	}
	return Off
}

// ZoneLine names a cell the way explain shows it: "recursive delete ·
// home data → deny".
func ZoneLine(e callfacts.PathEffect, z callfacts.Zone, m Mode) string {
	v := string(m)
	if m == Off || m == "" {
		v = "allow"
	}
	return strings.ReplaceAll(string(e), "-", " ") + " · " + strings.ReplaceAll(string(z), "-", " ") + " → " + v
}

// ZoneCell is one effect on a path with the cell of the table that
// judges it, for explain.
type ZoneCell struct {
	callfacts.Touch
	Verdict string `json:"verdict"`
	Cell    string `json:"cell"` // "recursive delete · home data → deny"
}

// ZoneCells judges every effect of the call on a path by the engine's
// table, allowed ones included: explain shows what the table saw.
func (e *Engine) ZoneCells(f *Facts) []ZoneCell {
	t := e.opts.zones()
	var out []ZoneCell
	for _, tc := range f.Touches() {
		m := t.Verdict(tc.Effect, tc.Zone)
		line := ZoneLine(tc.Effect, tc.Zone, m)
		out = append(out, ZoneCell{Touch: tc, Verdict: line[strings.LastIndex(line, " ")+1:], Cell: line})
	}
	return out
}
