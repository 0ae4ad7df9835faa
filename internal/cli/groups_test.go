package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestEveryCommandHasAGroup: each top-level command sits in one of the
// groups `warden --help` shows.
func TestEveryCommandHasAGroup(t *testing.T) {
	if missing := ungrouped(NewRoot()); len(missing) > 0 {
		t.Errorf("top-level commands without a group (add them to groupOf in groups.go): %v", missing)
	}
	for name, id := range groupOf {
		found := false
		for _, g := range groups {
			found = found || g.ID == id
		}
		if !found {
			t.Errorf("groupOf[%q] = %q, which is no group", name, id)
		}
	}
}

// TestHelpListsCommandsByGroup: `warden --help` shows each group's title
// with its commands under it, in the order of groups, and no flat list.
func TestHelpListsCommandsByGroup(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main([]string{"--help"}, &out, &errOut); code != 0 {
		t.Fatalf("warden --help: exit %d\n%s", code, errOut.String())
	}
	help := out.String()
	if strings.Contains(help, "Available Commands:") {
		t.Errorf("--help still has a flat list:\n%s", help)
	}
	last := -1
	for _, g := range groups {
		i := strings.Index(help, g.Title)
		if i < 0 || i < last {
			t.Fatalf("--help lacks %q, or shows it out of order:\n%s", g.Title, help)
		}
		last = i
	}
	// A command of each group under its own title.
	for _, c := range []struct{ title, cmd string }{
		{groups[0].Title, "safemode"}, {groups[1].Title, "policy"}, {groups[2].Title, "usage"},
		{groups[3].Title, "task"}, {groups[4].Title, "install"},
	} {
		section := help[strings.Index(help, c.title):]
		if next := strings.Index(section[len(c.title):], ":\n"); next >= 0 {
			section = section[:len(c.title)+next]
		}
		if !strings.Contains(section, "\n  "+c.cmd+" ") {
			t.Errorf("%q is not listed under %q:\n%s", c.cmd, c.title, help)
		}
	}
}
