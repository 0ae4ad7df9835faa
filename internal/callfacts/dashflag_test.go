package callfacts

import (
	"slices"
	"testing"
)

// A cluster's letters are split into "-x" words whatever x is: the
// table of printable ASCII and the built string for the rest agree.
func TestDashFlag(t *testing.T) {
	for r := rune(0); r < 0x300; r++ {
		if got := dashFlag(r); got != "-"+string(r) {
			t.Fatalf("dashFlag(%q) = %q", r, got)
		}
	}
	c := Cmd{Args: []string{"-la", "--color=auto", "x", "--", "-y"}}
	splitFlags(&c)
	if want := []string{"-la", "-l", "-a", "--color"}; !slices.Equal(c.Flags, want) {
		t.Errorf("flags %q, want %q", c.Flags, want)
	}
	if want := []string{"x", "-y"}; !slices.Equal(c.Pos, want) {
		t.Errorf("positionals %q, want %q", c.Pos, want)
	}
	c.Flags = append(c.Flags, "-z") // appending to one must not write over the other
	if c.Pos[0] != "x" {
		t.Errorf("positionals overwritten: %q", c.Pos)
	}
}
