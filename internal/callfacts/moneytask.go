package callfacts

// A task runner's task whose name joins a money noun to the verb that
// moves it (rake stripe:cancel_stale_subscriptions, npm run
// refunds:issue-pending, make payouts-send): the task's definition is
// not on the line, its name says it ends customers' service or moves
// money. Unlike MoneyMove, other words may stand in the name (a vendor,
// "stale", "all"): a task name is one word of many parts.

// MoneyInName returns "noun verb" when name holds a money noun and one
// of its verbs (moneyActs) among its parts, or a verb that moves money
// on its own (refund, payout); "" when it does not or a part only reads
// (stripe:list_refunds).
func MoneyInName(name string) string {
	parts := moneyParts(name)
	for _, w := range parts {
		if moneyReads[w] {
			return ""
		}
	}
	for _, n := range parts {
		noun := moneyNoun(n)
		if noun == "" {
			continue
		}
		for _, v := range parts {
			if v != n && containsWord(moneyActs[noun], v) {
				return noun + " " + v // capture-payments: payment capture
			}
		}
	}
	for _, w := range parts {
		if moneySelf[w] {
			return w // billing:refund_all
		}
	}
	return ""
}
