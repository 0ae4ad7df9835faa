package event

import "testing"

func TestResolvePrecedence(t *testing.T) {
	tests := []struct {
		name string
		in   []Decision
		want Verdict
		rule string
	}{
		{"empty is allow", nil, Allow, ""},
		{"deny beats ask", []Decision{{Verdict: Ask, RuleID: "a"}, {Verdict: Deny, RuleID: "d"}}, Deny, "d"},
		{"ask beats warn", []Decision{{Verdict: Warn, RuleID: "w"}, {Verdict: Ask, RuleID: "a"}}, Ask, "a"},
		{"warn beats audit", []Decision{{Verdict: Audit, RuleID: "au"}, {Verdict: Warn, RuleID: "w"}}, Warn, "w"},
		{"audit beats allow", []Decision{{Verdict: Allow}, {Verdict: Audit, RuleID: "au"}}, Audit, "au"},
		{"first deny wins a tie", []Decision{{Verdict: Deny, RuleID: "d1"}, {Verdict: Deny, RuleID: "d2"}}, Deny, "d1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Resolve(tt.in)
			if got.Verdict != tt.want || got.RuleID != tt.rule {
				t.Errorf("Resolve = %s/%s, want %s/%s", got.Verdict, got.RuleID, tt.want, tt.rule)
			}
		})
	}
}

func TestResolveKeepsEveryMessage(t *testing.T) {
	got := Resolve([]Decision{
		{Context: "one", SystemMessage: "s1"},
		{Verdict: Deny, RuleID: "d", Reason: "no", Context: "two"},
		{SystemMessage: "s2", UserReply: "r"},
	})
	if got.Context != "one\n\ntwo" || got.SystemMessage != "s1\ns2" || got.UserReply != "r" || got.Reason != "no" {
		t.Errorf("messages lost: %+v", got)
	}
}

func TestDecodeLenient(t *testing.T) {
	in, err := Decode([]byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash",
		"tool_input":{"command":"ls"},"brand_new_field":{"x":1},"duration_ms":"oops"}`))
	if err != nil {
		t.Fatal(err)
	}
	if in.SessionID != "s" || in.HookEventName != PreToolUse || in.ToolString("command") != "ls" {
		t.Errorf("decoded %+v", in)
	}
	if in.DurationMS != nil {
		t.Errorf("a wrongly typed field must be dropped, got %v", *in.DurationMS)
	}
	for _, bad := range []string{``, `[1,2]`, `"str"`, `{"session_id":`} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("Decode(%q) accepted", bad)
		}
	}
}

func TestKnown(t *testing.T) {
	if !Known(PreToolUse) || !Known(MessageDisplay) || Known("NoSuchEvent") {
		t.Error("Known is wrong")
	}
}
