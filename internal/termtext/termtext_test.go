package termtext_test

import (
	"testing"

	"github.com/warden-dev/warden/internal/termtext"
)

func TestVisible(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "fix the flaky test — ünïcode ok", "fix the flaky test — ünïcode ok"},
		{"backslash kept", `C:\dir\x41`, `C:\dir\x41`},
		{"clipboard write OSC 52", "hi\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07", `hi\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07`},
		{"screen clear", "\x1b[2J\x1b[Hdone", `\x1b[2J\x1b[Hdone`},
		{"bidi override", "file\u202etxt.exe", `file\u202etxt.exe`},
		{"bidi isolate", "a\u2066b\u2069", `a\u2066b\u2069`},
		{"zero width", "a\u200bb", `a\u200bb`},
		{"C1 CSI", "a\u009b2Jb", `a\u009b2Jb`},
		{"raw 0x9b byte", "a\x9b2Jb", `a\x9b2Jb`},
		{"newline, tab, CR", "a\nb\tc\rd", `a\x0ab\x09c\x0dd`},
		{"NUL and DEL", "a\x00b\x7f", `a\x00b\x7f`},
	}
	for _, c := range cases {
		if got := termtext.Visible(c.in); got != c.want {
			t.Errorf("%s: Visible(%q) = %q; want %q", c.name, c.in, got, c.want)
		}
	}
	if got := termtext.VisibleLines("one\x1b[2J\ntwo\u202e"); got != "one\\x1b[2J\ntwo\\u202e" {
		t.Errorf("VisibleLines: %q", got)
	}
}
