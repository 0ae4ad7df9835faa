package callfacts

import (
	"regexp"
	"strings"
	"sync"
)

// Money moved through a payment vendor's SDK in interpreter code
// (python -c "stripe.Refund.create(…)", node -e "stripe.refunds.create",
// braintree.Transaction.refund, client.payouts.create, createRefund(…)):
// the same acts moneyacts.go reads in a CLI's words, read here in a call
// chain's names. A noun and its verb must stand next to each other in
// the chain (Refund.create, payment_intents.capture) or in one name
// (create_refund, CreateRefund): an ORM row (Payment.objects.create) or a
// listing (stripe.Refund.list) is no money moved. Test keys (sk_test_)
// and sandboxes on the line spare it, as for the CLI.

var moneyChainRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b[A-Za-z_$][\w$]*(?:\s*(?:\.|->|::)\s*[A-Za-z_$][\w$]*)*\s*\(`)
})

var moneyChainSep = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s*(?:\.|->|::)\s*`) })

// MoneySDKMove names the money-moving call in c's interpreter code, ""
// for none.
func (c *Cmd) MoneySDKMove() string {
	if c.Payload == "" || !IsInterpreter(c.Name) || moneyTestWords(strings.ToLower(c.Payload)) {
		return ""
	}
	for _, m := range moneyChainRe().FindAllString(c.Payload, 64) {
		chain := moneyChainSep().Split(strings.TrimRight(strings.TrimSuffix(strings.TrimSpace(m), "("), " "), -1)
		if v := moneyChainAct(chain); v != "" {
			return v
		}
	}
	return ""
}

// moneyChainAct: the act a call chain's last names say (noun then verb,
// or one name holding both), "" for none.
func moneyChainAct(chain []string) string {
	last := moneyParts(chain[len(chain)-1])
	for _, w := range last {
		if moneyReads[w] {
			return ""
		}
	}
	// one name: create_refund, CreateRefund, refundPayment
	noun, verb := "", ""
	for _, w := range last {
		if n := moneyNoun(w); n != "" && noun == "" {
			noun = n
		}
	}
	for _, w := range last {
		if noun != "" && containsWord(moneyActs[noun], w) && w != noun {
			verb = w
		}
	}
	if noun != "" && verb != "" {
		return noun + " " + verb
	}
	if len(last) == 1 && len(chain) >= 2 {
		// Refund.create, refunds.create, payment_intents.capture,
		// Transaction.refund (the act itself as the method)
		prev := moneyParts(chain[len(chain)-2])
		w := last[0]
		if len(prev) > 0 {
			if n := moneyNoun(prev[len(prev)-1]); n != "" && containsWord(moneyActs[n], w) {
				return n + " " + w
			}
		}
		if moneySelf[w] && len(prev) > 0 && prev[len(prev)-1] != "objects" {
			return w
		}
	}
	return ""
}
