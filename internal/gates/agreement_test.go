package gates

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/policy"
	"github.com/warden-dev/warden/internal/policy/corpus"
)

// destructiveRule reports whether a policy rule fires on a change to
// files, repository, machine or database state (as opposed to a read of
// a secret, a send to the network or an unknown name): safemode must deny
// whatever such a rule finds. core.destroy:history-wipe is left out: it
// also fires on HISTSIZE=0 and unset HISTFILE, settings of the running
// shell that change no file (history -c is a change all the same).
func destructiveRule(id string) bool {
	if id == "core.destroy:history-wipe" {
		return false
	}
	for _, p := range []string{"core.destroy:", "core.shell:rm-root", "core.shell:mkfs", "core.shell:dd-device", "core.shell:chmod-root",
		"core.shell:find-delete-root", "core.git:reset-hard", "core.git:clean-force", "core.git:checkout-all", "core.git:stash-drop",
		"core.interp:delete-root", "core.self:warden-files", "core.self:git-clean-warden", "core.self:hook-scripts", "core.self:settings-hooks",
		"core.paths:env-write", "core.sql:drop", "core.agent:deny-write"} {
		if strings.HasPrefix(id, p) {
			return true
		}
	}
	return false
}

// agreementCorpus is every command the consumers are checked on: the
// policy corpus (risky commands and look-alikes), the policy's benign and
// destructive sets, and the wrapped changes and reads.
func agreementCorpus(t *testing.T) []string {
	cases, err := corpus.Load()
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for _, c := range cases {
		cmds = append(cmds, c.Command)
	}
	for _, name := range []string{"../policy/testdata/benign.txt", "../policy/testdata/destructive.txt"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if l != "" && l[0] != '#' {
				cmds = append(cmds, l)
			}
		}
	}
	for _, c := range loadWrapped(t) {
		cmds = append(cmds, c.cmd)
	}
	return cmds
}

// TestConsumersAgree runs every consumer of a call's facts — the policy
// engine, safemode and mutation tracking (gates.Mutation, as the hook
// calls it), the self-toggle gate — over one corpus and fails where they
// read a command differently: the policy finds a change safemode would
// let through, the policy's facts hold a user-only warden command the
// self-toggle gate misses, or the gate denies a toggle the policy would
// allow.
func TestConsumersAgree(t *testing.T) {
	eng := policy.TestEngine(policy.Builtin(), nil, policy.Options{})
	ctx := context.Background()
	cmds := agreementCorpus(t)
	if len(cmds) < 1500 {
		t.Fatalf("only %d commands in the agreement corpus", len(cmds))
	}
	var changes, toggles int
	for _, cmd := range cmds {
		call, err := policy.CaseCall(cmd, policy.TestHome, policy.TestProject)
		if err != nil {
			t.Fatalf("%q: %v", cmd, err)
		}
		res := eng.Evaluate(ctx, policy.Normalize(call))
		f := res.Facts
		mut, why := Mutation(&event.Input{ToolName: call.Tool, ToolInput: call.Input, Cwd: call.Cwd})
		if changeWhy, facts := f.Change(); facts != mut {
			t.Errorf("%q: the policy's facts say change=%v (%s), mutation tracking says %v (%s)", cmd, facts, changeWhy, mut, why)
		}
		for _, h := range res.Hits {
			if (h.Mode == policy.Deny || h.Mode == policy.Ask) && destructiveRule(h.ID) && !mut {
				t.Errorf("%q: the policy finds a change (%s: %s), safemode would let it through", cmd, h.ID, h.Reason)
			}
		}
		if mut {
			changes++
		}
		if call.Tool != "Bash" {
			continue
		}
		what, toggled := SelfToggle(f.Command)
		seen := ""
		for i := range f.Commands {
			if w := f.Commands[i].WardenToggle(); w != "" && seen == "" {
				seen = w
			}
		}
		switch {
		case seen != "" && !toggled:
			t.Errorf("%q: the policy's facts run %q, the self-toggle gate misses it", cmd, seen)
		case toggled && res.Decision != policy.Deny && res.Decision != policy.Ask:
			t.Errorf("%q: the self-toggle gate denies %q, the policy allows it", cmd, what)
		}
		if toggled {
			toggles++
		}
	}
	t.Logf("%d commands: %d changes, %d self-toggles, read alike by every consumer", len(cmds), changes, toggles)
}
