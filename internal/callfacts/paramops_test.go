package callfacts

import (
	"strings"
	"testing"
)

// Expansions are read by operator: what the shell prints, not the name.
func TestParamOperators(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{`echo "${TOKEN:0:4}****"`, "${…}****"},            // a short prefix
		{`echo "${TOKEN: -4}"`, "${…}"},                    // the last few characters
		{`echo "${TOKEN:4}"`, "$TOKEN"},                    // most of it
		{`echo "${TOKEN:0:40}"`, "$TOKEN"},                 // as long as a token
		{`echo "${TOKEN:0:$N}"`, "$TOKEN"},                 // a length the line does not show
		{`echo "${#TOKEN}"`, "$((…))"},                     // its length
		{`echo "${TOKEN:+TOKEN is set}"`, "TOKEN is set "}, // a fixed word, or nothing
		{`echo "${TOKEN:+$TOKEN}"`, "$TOKEN "},             // the word is the value
		{`echo ${TOKEN+x}`, "x"},
		{`X=abcdef; echo ${X:1:2} ${X: -2} ${#X} ${X:+set}`, "bc ef 6 set"},
		{`echo "${TOKEN/a/b}"`, "$TOKEN"},
	} {
		f := bash(tc.cmd)
		c := f.Commands[len(f.Commands)-1]
		if got := strings.Join(c.Args, " "); got != tc.want {
			t.Errorf("%q: args %q, want %q", tc.cmd, got, tc.want)
		}
	}
	if !UnknownValue("${…}****") || UnknownParts("a${…}b") != "ab" {
		t.Error("a piece of an unknown value must read as unknown")
	}
}
