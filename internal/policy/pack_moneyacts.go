package policy

import "github.com/warden-dev/warden/internal/callfacts"

// moneyActRules: money moved through a vendor's CLI (callfacts
// moneyacts.go): a refund, payout, capture or charge made, an invoice
// voided or paid, a customer's subscription cancelled — asked; fed a
// list another command generated (… | xargs -I{} stripe refunds create
// --charge={}), every one of them goes at once: denied. Test mode and
// sandboxes are left alone.
func moneyActRules() []Rule {
	find := func(e *Env, fed bool) string {
		if callfacts.MoneyTestLine(e.F.Command) {
			return "" // test mode or a sandbox named on the line
		}
		for i := range e.F.Commands {
			c := &e.F.Commands[i]
			if fedList(c) != fed {
				continue
			}
			v := c.MoneyMove()
			if v == "" && !fed {
				v = c.MoneySDKMove() // the vendor's SDK in interpreter code (moneysdk.go)
			}
			if v != "" && !e.localOnly(i) {
				if fed {
					return c.Name + " " + v + " for every id a generated list gives: " + c.String()
				}
				return c.Name + " " + v + ": moves real money or ends a customer's service: " + c.String()
			}
		}
		return ""
	}
	// a money noun is in the line wherever the rule can fire
	on := Trigger{Text: []string{"refund", "Refund", "payout", "Payout", "charge", "Charge", "payment", "Payment", "subscription", "Subscription", "sub", "invoice", "Invoice", "credit", "Credit", "transfer", "Transfer", "capture", "Capture"}}
	return []Rule{
		{
			ID: "external.systems:money-move-list", Mode: Deny, Tools: shellTools, On: on,
			Desc:  "Money moved for every id another command lists (stripe charges list | jq … | xargs stripe refunds create --charge=): the line does not show whom it pays back",
			Match: func(e *Env) string { return find(e, true) },
			Catch: []string{"stripe charges list | jq -r '.data[].id' | xargs -I{} stripe refunds create --charge={}", "cat ids.txt | xargs -n1 paypal payouts create --batch", "cut -d, -f1 subs.csv | xargs -n1 chargebee subscriptions cancel"},
			Allow: []string{"stripe charges list | jq -r '.data[].id' | xargs -I{} stripe charges retrieve {}", "cat ids.txt | xargs -n1 stripe refunds create --api-key sk_test_x --charge", "cat ids.txt | xargs -n1 chargebee invoice list --id"},
		},
		{
			ID: "external.systems:money-move", Mode: Ask, Tools: shellTools, On: on,
			Desc:  "Money moved through a vendor's CLI (a refund, payout, capture or charge made, an invoice voided or paid, a subscription cancelled: stripe refunds create, paypal payouts create, braintree transaction refund, chargebee invoice void): real customers and real money; test mode and sandboxes are not",
			Match: func(e *Env) string { return find(e, false) },
			Catch: []string{"stripe refunds create --charge=ch_1 --amount=2499", "stripe subscriptions cancel sub_1", "square refunds refund-payment --payment-id p1", "chargebee invoice void inv_1", "acmepay refund 42"},
			Allow: []string{"stripe refunds list", "stripe refunds create --charge=ch_1 --api-key sk_test_abc", "gcloud pubsub subscriptions create s --topic t", "aws transfer create-server", "acmepay refund --help"},
		},
	}
}
