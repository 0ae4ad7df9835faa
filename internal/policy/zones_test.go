package policy

import (
	"context"
	"path"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/callfacts"
)

// TestZoneTableComplete: the table has a cell for every effect on every
// zone, so no pair is allowed by omission.
func TestZoneTableComplete(t *testing.T) {
	tab := builtinZones()
	for _, e := range callfacts.PathEffects() {
		for _, z := range callfacts.Zones() {
			if _, ok := tab[e][z]; !ok {
				t.Errorf("zones.txt has no cell for %s · %s", e, z)
			}
		}
	}
	if len(tab) != len(callfacts.PathEffects()) {
		t.Errorf("zones.txt has %d rows, want %d", len(tab), len(callfacts.PathEffects()))
	}
}

// TestZoneTableConfig: the user's policy.zones sets a cell either way;
// policy.zones_raise (which a project may add) only tightens; bad
// entries change nothing and lint names them.
func TestZoneTableConfig(t *testing.T) {
	rd, hd := callfacts.PathRecursiveDelete, callfacts.ZoneHomeData
	o := &Options{Zones: []string{"recursive-delete:home-data=ask", "delete:temp=deny"},
		ZonesRaise: []string{"write:project=ask", "recursive-delete:temp=allow", "*:cache=deny", "bogus"}}
	tab := ZoneTableFor(o)
	for _, c := range []struct {
		e    callfacts.PathEffect
		z    callfacts.Zone
		want Mode
	}{{rd, hd, Ask}, {callfacts.PathDelete, callfacts.ZoneTemp, Deny}, {callfacts.PathWrite, callfacts.ZoneProject, Ask},
		{rd, callfacts.ZoneTemp, Off}, {callfacts.PathWrite, callfacts.ZoneCache, Deny}} {
		if got := tab.Verdict(c.e, c.z); got != c.want {
			t.Errorf("%s · %s = %q, want %q", c.e, c.z, got, c.want)
		}
	}
	if builtinZones().Verdict(rd, hd) != Deny {
		t.Error("a config changed the built-in table")
	}
	lint := strings.Join(LintOptions(nil, Builtin(), Options{Zones: []string{"delete:moon=ask"}, ZonesRaise: []string{"bogus"}}), "\n")
	if !strings.Contains(lint, `no zone "moon"`) || !strings.Contains(lint, "policy.zones_raise") {
		t.Errorf("lint: %s", lint)
	}
}

// TestZoneExplainNamesCell: the reason names the table's cell, and an
// engine built with a loosened table follows it.
func TestZoneExplainNamesCell(t *testing.T) {
	c, _ := CaseCall("rm -rf ~/Documents", TestHome, TestProject)
	r := TestEngine(Builtin(), nil, Options{}).Evaluate(context.Background(), Normalize(c))
	var reason string
	for _, h := range r.Hits {
		if h.ID == "core.zones:deny" {
			reason = h.Reason
		}
	}
	if !strings.Contains(reason, "recursive delete · home data → deny") {
		t.Errorf("reason %q does not name the cell", reason)
	}
	c, _ = CaseCall("rm -rf ~/.cache/x ~/Music", TestHome, TestProject)
	r = TestEngine(Builtin(), nil, Options{Zones: []string{"recursive-delete:home-data=allow"}}).Evaluate(context.Background(), Normalize(c))
	for _, h := range r.Hits {
		if strings.HasPrefix(h.ID, "core.zones:") {
			t.Errorf("loosened table still fires: %s %s", h.ID, h.Reason)
		}
	}
}

// TestZoneUnknownSaysSo: a destructive effect whose target the line does
// not show is asked, and the reason says why.
func TestZoneUnknownSaysSo(t *testing.T) {
	for _, cmd := range []string{`rm -rf "$TARGET"`, "rm -rf $(cat dirs.txt)", `dd if=/dev/zero of="$DEV"`} {
		c, _ := CaseCall(cmd, TestHome, TestProject)
		r := TestEngine(Builtin(), nil, Options{}).Evaluate(context.Background(), Normalize(c))
		if r.Decision.Rank() < Ask.Rank() || !strings.Contains(r.Top().Reason+hitReasons(r), "does not show the target") {
			t.Errorf("%q: %s, reasons %s", cmd, r.Decision, hitReasons(r))
		}
	}
}

func hitReasons(r *Result) string {
	var s []string
	for _, h := range r.Hits {
		s = append(s, h.ID+": "+h.Reason)
	}
	return strings.Join(s, "; ")
}

// underSub is under(p, path.Join(dir, sub)) without building the path.
func TestUnderSub(t *testing.T) {
	for _, c := range []struct {
		p, dir, sub string
	}{{"/home/dev/.ssh", "/home/dev", ".ssh"}, {"/home/dev/.ssh/id_rsa", "/home/dev", ".ssh"}, {"/home/dev/.sshx", "/home/dev", ".ssh"},
		{"/home/dev", "/home/dev", ".ssh"}, {"/home/devx/.ssh", "/home/dev", ".ssh"}, {"/home/dev/.config/gh/hosts.yml", "/home/dev", ".config/gh"},
		{"/.ssh/k", "/", ".ssh"}, {"/home/.ssh", "/home/dev", "../.ssh"}, {"/x", "", ".ssh"}} {
		if got, want := underSub(c.p, c.dir, c.sub), under(c.p, path.Join(c.dir, c.sub)); got != want {
			t.Errorf("underSub(%q, %q, %q) = %v, want %v", c.p, c.dir, c.sub, got, want)
		}
	}
}
