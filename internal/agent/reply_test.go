package agent

import (
	"strings"
	"testing"
)

// A reply typed into an agent's prompt can press no key by itself:
// control characters (Escape, Ctrl-C, a bare CR) are dropped, newlines
// and tabs become spaces; a follow-up's prompt keeps its lines.
func TestCleanReply(t *testing.T) {
	got, err := CleanReply("  fix it\x1b[2J\x03 now\r\nthen\ttest \u2028 ", false)
	if err != nil || got != "fix it[2J now then test" {
		t.Errorf("one line: %q %v", got, err)
	}
	if got, _ := CleanReply("first\nsecond\x07\n", true); got != "first\nsecond" {
		t.Errorf("multiline: %q", got)
	}
	for _, bad := range []string{"", "  \n\t ", "\x1b\x03", "\xff\xfe", strings.Repeat("x", MaxReply+1)} {
		if _, err := CleanReply(bad, false); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if got, _ := CleanReply("-n is a flag to tmux", false); got != "-n is a flag to tmux" {
		t.Errorf("leading dash: %q", got)
	}
}
