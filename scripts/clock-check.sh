#!/usr/bin/env bash
# Runs the tests of the code that decides by the calendar — pacing's
# weekday allowance and weekend delays, the status line's pacing slot,
# daily usage, the dashboard's pacing figures — with the instant pinned
# (testenv.Now: WARDEN_TEST_NOW) on a Saturday and on a Monday, each in a
# time zone other than UTC, as faketime would pin a process's clock. A test
# that passes only on the day it was written fails here on any day.
#
#   scripts/clock-check.sh [go test flags]
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=(./internal/pace/... ./internal/statusline/ ./internal/usage/ ./internal/dashboard/storesource/)
# ccusage, which usage's tests compare against, reads the wall clock: its
# comparisons run in the main suite only.
# The dashboard's pacing chart test pins its own instants (a Saturday, a
# Monday, a Friday evening, two nights clocks change): its browser start
# is not worth paying twice more here.
rc=0
# Past instants: what a test records through the real API or a real hook
# process (stamped by the wall clock) is then newer than what it seeded.
for at in "2026-11-21T10:00:00Z America/New_York" "2026-11-23T09:00:00Z Europe/Berlin"; do
	read -r now tz <<<"$at"
	echo "clock-check: $now (TZ=$tz)" >&2
	WARDEN_TEST_NOW=$now TZ=$tz go test -count=1 -skip Ccusage "$@" "${pkgs[@]}" || rc=1
	WARDEN_TEST_NOW=$now TZ=$tz go test -count=1 -run 'Pacing|Pace' "$@" ./internal/handlers/ ./internal/cli/ || rc=1
done
exit "$rc"
