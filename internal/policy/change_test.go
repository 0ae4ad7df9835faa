package policy

import "testing"

// TestReadingRulesAreBuiltin: the rules that say they only read (Rule.Reads)
// ask or deny by default (a read that is allowed needs no class), they
// include every read the gates have always let keep its verdict, and what
// each of them catches is mostly a read indeed: at least 3 and half of its
// catch cases change nothing the facts see (a catch may also write, as
// cp .env .env.bak does: the facts stop that write themselves).
func TestReadingRulesAreBuiltin(t *testing.T) {
	reads := readingRules()
	for _, id := range []string{"core.secrets:read-secret", "core.secrets:exfil", "core.secrets:send-credential", "core.secrets:cloud-metadata",
		"core.secrets:print-credential-file", "core.secrets:secret-hunt", "core.secrets:infra-secret-output", "core.local:secret-hunt",
		"core.local:history-read", "core.local:env-secret-grep", "core.local:warden-read", "external.systems:dns-carries-data"} {
		if !reads[id] {
			t.Errorf("%s no longer says it only reads: safemode would deny what it asks", id)
		}
	}
	for _, p := range Builtin() {
		for _, r := range p.Rules {
			if !r.Reads {
				continue
			}
			if r.Mode != Ask && r.Mode != Deny {
				t.Errorf("%s only reads but is %s by default; only asking or denying rules need a class", r.ID, r.Mode)
			}
			reads := 0
			for _, c := range r.Catch {
				call, err := CaseCall(c, TestHome, TestProject)
				if err != nil {
					t.Fatal(err)
				}
				if _, changes := Normalize(call).Change(); !changes {
					reads++
				}
			}
			if reads < 3 || reads*2 < len(r.Catch) {
				t.Errorf("%s says it only reads, but only %d of its %d catch cases are reads (the facts see a change in the others)", r.ID, reads, len(r.Catch))
			}
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
