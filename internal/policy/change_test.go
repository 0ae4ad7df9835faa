package policy

import "testing"

// TestReadingRulesAreBuiltin: the list of rules that only read names
// rules that exist, each asking or denying by default (a stale id would
// silently turn a change rule's twin into a read).
func TestReadingRulesAreBuiltin(t *testing.T) {
	modes := map[string]Mode{}
	for _, p := range Builtin() {
		for _, r := range p.Rules {
			modes[r.ID] = r.Mode
		}
	}
	for id := range readingRules {
		m, ok := modes[id]
		if !ok {
			t.Errorf("readingRules: %s is not a built-in rule", id)
		} else if m != Ask && m != Deny {
			t.Errorf("readingRules: %s is %s by default; only asking or denying rules need a class", id, m)
		}
	}
}

func TestChangeHit(t *testing.T) {
	eng := TestEngine(Builtin(), nil, Options{})
	for cmd, want := range map[string]string{
		"ansible-playbook -i inventory/prod site.yml": "external.systems:",
		"sudo mount -o remount,rw /":                  "core.shell:sudo",
		"gh auth token":                               "",
		"cat .env":                                    "",
		"ls -la":                                      "",
	} {
		call, err := CaseCall(cmd, TestHome, TestProject)
		if err != nil {
			t.Fatal(err)
		}
		h := eng.Evaluate(t.Context(), Normalize(call)).ChangeHit()
		switch {
		case want == "" && h != nil:
			t.Errorf("%q: a read, but %s is taken for a change", cmd, h.ID)
		case want != "" && (h == nil || len(h.ID) < len(want) || h.ID[:len(want)] != want):
			t.Errorf("%q: want a change hit %s…, got %+v", cmd, want, h)
		}
	}
	if FlagsChange("user.mine:ask-curl") {
		t.Error("a user rule is classified: it must keep its own mode")
	}
	var nilRes *Result
	if nilRes.ChangeHit() != nil {
		t.Error("nil result")
	}
}
