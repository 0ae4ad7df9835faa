package callfacts

import (
	"strings"
)

// Money moved through a vendor's CLI or API (stripe refunds create,
// paypal payouts create, braintree transaction refund, square
// refunds refund-payment, chargebee invoice void, createRefund): a
// money noun among the first words, and a verb that moves it — in the
// same word (create-refund, refunds:create, CreateRefund) or in a word
// after it (stripe refunds create). The verb's word holds no other noun
// (aws transfer create-server is a file server, not money). Whatever
// program says it, real money or a real customer's subscription goes.

// moneyActs: for each money noun, the verbs that move money or end a
// customer's service. A subscription is created harmlessly (pub/sub
// subscriptions), so only its end counts.
var moneyActs = map[string]string{
	"refund":        "create issue send execute approve process",
	"payout":        "create send execute approve release",
	"charge":        "create capture refund",
	"payment":       "create capture confirm refund execute send",
	"paymentintent": "create capture confirm",
	"subscription":  "cancel terminate",
	"invoice":       "void pay finalize writeoff",
	"creditnote":    "create issue",
	"transfer":      "create reverse",
	"capture":       "create refund",
}

// moneySelf: verbs that move money on their own (mycli refund 42,
// braintree transaction void x).
var moneySelf = map[string]bool{"refund": true, "payout": true}

// moneyReads: a read among the words makes it a listing (stripe refunds
// list, payouts retrieve, charges search).
var moneyReads = map[string]bool{"list": true, "ls": true, "get": true, "retrieve": true, "show": true, "describe": true, "search": true, "view": true, "status": true, "fetch": true, "help": true, "find": true, "preview": true, "upcoming": true, "simulate": true}

func moneyNoun(w string) string {
	w = strings.TrimSuffix(w, "s")
	switch w {
	case "credit", "creditnote", "credit_note":
		return "creditnote"
	case "payment_intent", "paymentintent":
		return "paymentintent"
	case "sub":
		return "subscription"
	}
	if _, ok := moneyActs[w]; ok {
		return w
	}
	return ""
}

// moneyParts splits a word into its lower-case parts at : - _ . / and
// camel humps (refunds:create, create-refund, CreateRefund).
func moneyParts(w string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(w, func(r rune) bool { return r == ':' || r == '-' || r == '_' || r == '.' || r == '/' }) {
		if cp := camelParts(p); cp != nil {
			out = append(out, cp...)
			continue
		}
		out = append(out, strings.ToLower(p))
	}
	// credit_note, payment_intent, credit-notes: joined back
	for i := 0; i+1 < len(out); i++ {
		if j := out[i] + out[i+1]; (out[i] == "credit" || out[i] == "payment") && (strings.HasPrefix(out[i+1], "note") || strings.HasPrefix(out[i+1], "intent")) {
			out = append(append(out[:i:i], j), out[i+2:]...)
		}
	}
	return out
}

// MoneyMove names the money-moving act among c's first words, "" for
// none, a listing, help, a dry run, or test mode (sk_test_, --test,
// --livemode=false, a sandbox).
func (c *Cmd) MoneyMove() string {
	if IsInterpreter(c.Name) || shells[c.Name] || len(c.Pos) == 0 || Known(c.Name) && remoteRules()[c.Name] == nil {
		return ""
	}
	noun := ""
	act := ""
	for i, p := range c.Pos {
		if i > 3 {
			break
		}
		if strings.ContainsAny(p, "=@ $") || optionBefore(c.Args, p) {
			break
		}
		parts := moneyParts(p)
		here, verb, other := "", "", false
		for _, w := range parts {
			switch {
			case moneyReads[w]:
				return ""
			case verb == "" && (here != "" && containsWord(moneyActs[here], w) || here == "" && noun != "" && containsWord(moneyActs[noun], w)):
				verb = w // payment_intents capture: capture the verb here
			case moneySelf[w] && verb == "":
				verb = w // refund-payment, mycli refund 42: the act itself
			case moneyNoun(w) != "":
				here = moneyNoun(w)
			case moneySelf[w]:
				verb = w
			default:
				verb2 := false
				for _, acts := range moneyActs {
					if containsWord(acts, w) {
						verb2 = true
						break
					}
				}
				if verb2 {
					verb = w
				} else {
					other = true
				}
			}
		}
		if here != "" && verb == "" && !other {
			noun = here // stripe refunds …: the noun, its verb to come
			continue
		}
		if verb == "" || other && len(parts) > 1 {
			continue // create-server, a plain operand
		}
		n := here
		if n == "" {
			n = noun
		}
		if moneySelf[verb] && (n == "" || n == verb) || n != "" && containsWord(moneyActs[n], verb) {
			act = strings.Join(parts, " ")
			if n != "" && here == "" {
				act = n + " " + verb
			}
			break
		}
	}
	if act == "" || c.DryRun() || c.asksHelp() || c.testMode() {
		return ""
	}
	return act
}

func containsWord(list, w string) bool {
	for _, f := range strings.Fields(list) {
		if f == w {
			return true
		}
	}
	return false
}

// MoneyTestLine: the line sets a vendor's test mode or sandbox
// (STRIPE_API_KEY=sk_test_… stripe refunds create, export … sandbox).
func MoneyTestLine(line string) bool { return moneyTestWords(strings.ToLower(line)) }

// testMode: the command runs against a vendor's test mode or sandbox.
func (c *Cmd) testMode() bool {
	return moneyTestWords(strings.ToLower(c.Raw+" "+strings.Join(c.Args, " "))) || c.Has("--test", "--sandbox", "-test")
}

func moneyTestWords(l string) bool {
	for _, s := range []string{"sk_test_", "rk_test_", "pk_test_", "sandbox", "--livemode=false", "--live=false", "--test-mode", "--testmode", "localhost", "127.0.0.1"} {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}
