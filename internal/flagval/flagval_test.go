package flagval

import (
	"strings"
	"testing"
	"time"
)

func TestTime(t *testing.T) {
	f := Time{Unset: "now"}
	if f.String() != "now" || f.Given {
		t.Fatalf("unset: %q %v", f.String(), f.Given)
	}
	if err := f.Set(" 2025-11-06T15:30:00+01:00 "); err != nil || !f.Given || !f.T.Equal(time.Date(2025, 11, 6, 14, 30, 0, 0, time.UTC)) || f.T.Location() != time.UTC {
		t.Fatalf("set: %v %v %v", err, f.Given, f.T)
	}
	if f.String() != "2025-11-06T14:30:00Z" {
		t.Errorf("String = %q", f.String())
	}
	g := Time{}
	if err := g.Set("2025-11-06 14:30"); err == nil || !strings.Contains(err.Error(), "RFC 3339") || g.Given {
		t.Errorf("bad time: %v, given %v", err, g.Given)
	}
}
