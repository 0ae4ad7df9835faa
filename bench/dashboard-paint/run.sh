#!/bin/sh
# Dashboard first paint: every page in headless Chromium over loopback
# (first-contentful-paint from the browser's Paint Timing, fcp-ms) against a
# bare static page served in the same run (ratio), and each page's handler
# time alone (ns/op). Target: fcp-ms under 200 on loopback. Needs chromium.
#   bench/dashboard-paint/run.sh [-benchtime 20x]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
benchtime=${2:-20x}
[ "${1:-}" = "-benchtime" ] || benchtime=20x
go test -count=1 -run '^$' -bench 'FirstPaint|Handler' -benchtime "$benchtime" ./internal/dashboard |
	grep -E '^Benchmark|^ok|FAIL'
