package policy

import "sync"

// readingRules are the built-in rules whose finding is a read: a secret
// printed or looked for, a token sent along with a request, warden's own
// files read. Every other built-in rule that asks or denies has found a
// change — to files, the machine, its account, a remote system, or one
// the line cannot show (code run from a registry, a script fed to a shell)
// — and the gates that stop changes (safemode, the breaker, the research
// and start-up gates) stop it. Keeping the list of reads (short, and
// closed) rather than a list of changes means a new rule counts as a
// change until someone says it only reads: unknown stays visible.
var readingRules = map[string]bool{
	"core.secrets:read-secret":            true,
	"core.secrets:exfil":                  true, // printing secrets; sending them is exfil-send (deny)
	"core.secrets:send-credential":        true,
	"core.secrets:cloud-metadata":         true,
	"core.secrets:print-credential-file":  true,
	"core.secrets:secret-hunt":            true,
	"core.secrets:infra-secret-output":    true,
	"core.local:secret-hunt":              true,
	"core.local:history-read":             true,
	"core.local:env-secret-grep":          true,
	"core.local:warden-read":              true,
	"core.local:tool-credentials":         true, // a write to them is a write the facts see
	"external.systems:dns-carries-data":   true,
	"external.systems:device-config-read": true, // a device's configuration printed: its secrets read
}

// builtinIDs is every built-in rule's id: user rules keep their own mode
// in safemode; only warden's rules are classified.
var builtinIDs = sync.OnceValue(func() map[string]bool {
	ids := map[string]bool{}
	for _, p := range builtinPacks() {
		for _, r := range p.Rules {
			ids[r.ID] = true
		}
	}
	return ids
})

// FlagsChange reports whether a hit of the rule id means the call changes
// something: a built-in rule that is not about reading.
func FlagsChange(id string) bool {
	return builtinIDs()[id] && !readingRules[id]
}

// ChangeHit returns the first deny or ask whose rule flags a change (nil
// when none does): what a gate that stops changes stops even when the
// call's facts show no write — a deploy, a database reset, a remounted
// filesystem, a package run straight from a registry.
func (r *Result) ChangeHit() *Hit {
	if r == nil {
		return nil
	}
	for i := range r.Hits {
		h := &r.Hits[i]
		if (h.Mode == Deny || h.Mode == Ask) && FlagsChange(h.ID) {
			return h
		}
	}
	return nil
}
