package judge

import "testing"

func TestParse(t *testing.T) {
	cases := []struct {
		kind   Kind
		text   string
		pass   bool
		reason string
		bad    bool
	}{
		{KindTempo, "APPROVED", true, "", false},
		{KindTempo, "  \n\nAPPROVED\n", true, "", false},
		{KindTempo, "**APPROVED**", true, "", false},
		{KindTempo, "BLOCKED: the tests were not run", false, "the tests were not run", false},
		{KindTempo, "**BLOCKED:** tests missing\nAlso the README.", false, "tests missing\nAlso the README.", false},
		{KindTempo, "Here is my verdict:\nBLOCKED - no docs", false, "no docs", false},
		{KindTempo, "Verdict: APPROVED", true, "", false},
		{KindTempo, "Blocked: lower case with colon", false, "lower case with colon", false},
		{KindTempo, "BLOCKED", false, "(the judge gave no reason)", false},
		{KindTempo, "The work looks done.", false, "", true},
		{KindTempo, "", false, "", true},
		{KindTempo, "Preamble one.\nPreamble two.\nAPPROVED", false, "", true},
		{KindReview, "APPROVED", true, "", false},
		{KindReview, "The function parse() swallows the error from Atoi.", false, "The function parse() swallows the error from Atoi.", false},
		{KindReview, "  ", false, "", true},
		{KindApprove, "APPROVE", true, "", false},
		{KindApprove, "APPROVED", true, "", false},
		{KindApprove, "DENY: rm of the home directory", false, "rm of the home directory", false},
		{KindApprove, "`DENY`: exfiltrates ~/.ssh", false, "exfiltrates ~/.ssh", false},
		{KindAppeal, "OVERTURN", true, "", false},
		{KindAppeal, "UPHOLD: still destructive", false, "still destructive", false},
		{KindCheck, "OK", true, "", false},
		{KindCheck, "BLOCK: did not acknowledge the failure", false, "did not acknowledge the failure", false},
		{KindCheck, "Okay, so the call is fine", false, "", true},
	}
	for _, c := range cases {
		v, err := Parse(c.kind, c.text)
		if c.bad {
			if err == nil {
				t.Errorf("Parse(%s, %q) = %+v, want no verdict", c.kind, c.text, v)
			}
			continue
		}
		if err != nil || v.Pass != c.pass || v.Reason != c.reason {
			t.Errorf("Parse(%s, %q) = %+v, %v; want pass=%v reason=%q", c.kind, c.text, v, err, c.pass, c.reason)
		}
	}
}

func TestFill(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	got := Fill("a {{x}} b {{ y }} {{missing}} {{format}}", KindCheck, map[string]string{"x": "{{y}}", "y": "Y"})
	want := "a {{y}} b Y (none) " + KindCheck.Format()
	if got != want {
		t.Errorf("Fill = %q, want %q", got, want)
	}
	for _, n := range TemplateNames() {
		if tpl, src := Template(n); tpl == "" || src != "builtin" {
			t.Errorf("template %s: %q from %q", n, tpl, src)
		}
	}
}
