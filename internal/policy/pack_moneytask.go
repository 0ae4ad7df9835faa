package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// moneyTaskRule: a task runner's task named for moving money or ending
// customers' service (rake stripe:cancel_stale_subscriptions, npm run
// refunds:issue, make payouts-send). The runner is local but the task is
// the app's own code, calling the payment vendor with its live keys: what
// it does is its name, as deploy-task reads a task named for shipping.
// A definition read on disk is judged by what it runs instead; tasks
// named for tests, checks or dry runs (local-task words) and a vendor's
// test mode on the line stay allowed.
func moneyTaskRule() Rule {
	names := taskRunnerNames()
	return cmdRuleIf("external.systems:money-task", Ask, "A task runner's task whose name joins a money noun to the verb that moves it (rake stripe:cancel_stale_subscriptions, npm run refunds:issue, make payouts-send): the app's own code refunds, pays out or cancels subscriptions with its live keys; listings, tests, dry runs and a vendor's test mode stay allowed (callfacts moneyacts.go's nouns and verbs)", names, moneyNounText,
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || c.DryRun() || c.Has("-n", "--just-print", "--dry-run", "--dry") && c.Name != "npm" || listsTasks(c) || definitionRead(e, c) {
				return ""
			}
			if callfacts.MoneyTestLine(e.F.Command) {
				return "" // STRIPE_API_KEY=sk_test_… or a sandbox named on the line
			}
			stay := opsList("local-task")
			for _, t := range runnerTasks(c) {
				if strings.ContainsAny(t, "=/") || anyWordIn(t, stay) {
					continue
				}
				if m := callfacts.MoneyInName(t); m != "" {
					return c.Name + " " + t + " moves money or ends customers' service by its name (" + m + "): " + c.String()
				}
			}
			return ""
		},
		[]string{"bundle exec rake stripe:cancel_stale_subscriptions", "npm run refunds:issue-pending", "make payouts-send", "yarn billing:void-invoices", "rake billing:refund_all", "just capture-payments"},
		[]string{"rake stripe:list_refunds", "npm run test:refunds", "make -n payouts-send", "rake subscriptions:report", "npm run build", "rake -T refund"})
}

// anyWordIn: one of the words of name (wordsOf) is in set.
func anyWordIn(name string, set map[string]bool) bool {
	for _, w := range wordsOf(name) {
		if set[w] {
			return true
		}
	}
	return false
}

// moneyNounText: c's operands hold a money noun in some case (a cheap
// test before the runner's tasks are read).
func moneyNounText(e *Env, c *Cmd) bool {
	l := strings.ToLower(strings.Join(c.Pos, " "))
	for _, n := range []string{"refund", "payout", "charge", "payment", "sub", "invoice", "credit", "transfer", "capture"} {
		if strings.Contains(l, n) {
			return true
		}
	}
	return false
}
