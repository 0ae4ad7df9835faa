// Package pace is warden's pacing maths: the reference algorithm of
// reference/pacing.md (Claude Pace Maker v2.34.2; SPEC.md §2) written as
// pure functions over explicit times. Nothing here reads the clock, the
// store or the network: callers pass "now" and the usage figures in, so the
// same figures come out every time and the hook, the status line, the
// scheduler and `warden pace simulate` can all share it.
//
// Time zone: every function that is given a time uses it as passed; Decide
// converts its input to UTC first, as the reference does ("Time zone: UTC"
// in pacing.md). CountWeekdaySeconds alone keeps the offset of its start
// argument, as the reference's counter does.
//
// The layers, bottom up (pacing.md section in brackets):
//
//	CountWeekdaySeconds          [count_weekday_seconds]
//	ContinuousAllowance          [Continuous allowance (5 h)]
//	WeekdayAllowance             [Weekend-aware allowance (7 d)]
//	SafeAllowance                [Safe allowance]
//	TimePercent                  [calculator.calculate_time_percent]
//	MostConstrained              [determine_most_constrained_window]
//	AdaptiveDelay                [calculate_adaptive_delay]
//	Decide                       [calculate_pacing_decision]
//
// warden's deliberate differences (top of pacing.md) live in Params:
// BaseDelay and MaxDelay are honoured (CapMaxDelay keeps MaxDelay below the
// PostToolUse timeout), and ThresholdPercent is honoured as a tolerance
// above the safe allowance. Fair sharing across sessions, quota sources and
// sleeping are separate layers applied to a Decision after Decide.
//
// The live layer sits on top, in its own files, and is the only part that
// touches the outside: live.go (the cached decision every PostToolUse
// applies, pace.Current; fair sharing is fairshare.go), statusline.go
// (RecordStatusline, StatuslineSegment), report.go (StatusLines for
// `warden status`, Report for `warden pace`, the 80/95 % Notices),
// poll.go and credentials.go (when to start the detached `warden pace
// poll`; the OAuth token is read, never refreshed), estimate.go (when the
// transcript estimate, quota source 3, applies; internal/pace/estimate
// computes it in warden-helper). It reads and writes
// the store through quota.Store and never the network: the HTTP client is
// internal/pace/oauth, linked only into the CLI. internal/pace/simulate
// replays usage profiles and draws charts.
package pace
