package policy

import "strings"

// oneRecordRead: a live-mode read narrowed to the one record the user
// named — by its id (stripe customers retrieve cus_PdX2kLm9QvR4tz,
// stripe charges list --customer cus_…) or by the customer's own
// address (--email jen@example.com) — looks that record up, as the
// user would in the dashboard: a read the levels allow. A listing of
// every customer, refund or payout (stripe refunds list --live) still
// asks: it brings real customers' records into the conversation in bulk.
func oneRecordRead(c *Cmd) bool {
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		k, v, ok := strings.Cut(a, "=")
		if !ok && i+1 < len(c.Args) {
			v = c.Args[i+1]
		}
		if oneRecordOpts[k] && v != "" && !strings.HasPrefix(v, "-") && !strings.ContainsAny(v, "$*%`") {
			return true
		}
	}
	for _, p := range c.Pos {
		if recordID.MatchString(p) {
			return true
		}
	}
	return false
}

// oneRecordOpts select one customer's or one object's records.
var oneRecordOpts = map[string]bool{"--email": true, "--customer": true, "--id": true, "--charge": true, "--invoice": true,
	"--subscription": true, "--payment-intent": true, "--account": false}

// recordID: a payment platform's object id (cus_…, ch_…, in_…, sub_…,
// pi_…): a prefix, an underscore and a long random tail.
var recordID = re(`^[a-z]{2,5}_[A-Za-z0-9]{10,}$`)
