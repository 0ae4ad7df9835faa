package gates

import "github.com/warden-dev/warden/internal/config"

// Rule describes a gate the way `warden policy list` shows rules: gates
// deny like rules do, so they are listed with them.
type Rule struct {
	ID      string
	Handler string // the handler name disabled_handlers uses
	Desc    string
	On      bool
}

// Rules lists the gates and whether each is on under cfg.
func Rules(cfg *config.Config) []Rule {
	g := cfg.Gates
	rules := []Rule{
		{"gates:safemode", "safemode", "while safemode is on (s+), deny every change until the user types s-", true},
		{"gates:breaker", "breaker", "after repeated tool failures, deny changes until the user resets the breaker (rb-)", g.Breaker},
		{"gates:research", "research", "after a task prompt, deny changes until the required research was done", g.Research},
		{"gates:startup", "startup", "deny changes until the configured startup steps are done", len(g.StartupSteps) > 0},
		{"gates:verify-before-stop", "verify", "block a Stop once when files changed after the last test run", g.VerifyBeforeStop},
		{"gates:self-toggle", "self-toggle", "deny tool calls that run user-only warden commands (off, safemode, breaker)", true},
	}
	for i := range rules {
		rules[i].On = rules[i].On && cfg.HandlerEnabled(rules[i].Handler)
	}
	return rules
}
