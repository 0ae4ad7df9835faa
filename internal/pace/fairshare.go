package pace

// FairShare scales the reference algorithm's per-call delay for n sessions
// that are active on one account at the same time (SPEC.md §2, "fair
// sharing"; the reference knows only one session).
//
// The formula: delay_n = min(n × delay_1, max_delay), and 0 when delay_1 is
// 0, where delay_1 is Decide's delay.
//
// Why: the usage figures are the account's, so Decide's delay is what the
// account needs, as if one session made every call: "after each of the
// account's tool calls, wait delay_1 more". With n sessions working in
// parallel, each making a call every t seconds, the account makes a call
// every t/n seconds, and a session's sleep delays only its own calls. If
// each session sleeps d after its calls, the account's gap between calls is
// (t + d)/n; making that the reference's t/n + delay_1 gives d = n × delay_1.
// Each session therefore carries its share of the account's delay instead
// of acting as if it were alone (which would leave the account n times
// further from the gap the algorithm asked for).
//
// Properties: with one session (or n <= 1) the delay is the reference's
// exactly; when the account is on pace (delay_1 = 0) no session waits,
// however many there are; an emergency (delay_1 = max_delay) stays
// max_delay; the result never exceeds max_delay.
func FairShare(delay1, sessions, maxDelay int) int {
	if delay1 <= 0 {
		return 0
	}
	if sessions <= 1 {
		return delay1
	}
	d := delay1 * sessions
	if d > maxDelay || d < 0 {
		return maxDelay
	}
	return d
}
