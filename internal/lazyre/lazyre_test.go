package lazyre

import "testing"

// A pattern compiles on first use and then answers like regexp.
func TestLazy(t *testing.T) {
	r := New(`(\w+)@(\w+)`)
	if r.re != nil {
		t.Fatal("compiled before use")
	}
	if !r.MatchString("x me@host y") || r.FindString("x me@host y") != "me@host" {
		t.Fatal("no match")
	}
	if m := r.FindStringSubmatch("me@host"); len(m) != 3 || m[2] != "host" {
		t.Fatalf("groups %q", m)
	}
	if got := r.ReplaceAllString("me@host", "$2"); got != "host" {
		t.Fatalf("replace %q", got)
	}
}
