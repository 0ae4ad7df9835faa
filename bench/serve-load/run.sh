#!/bin/sh
# The daemon probe's load, re-run (see main.go): `warden serve` and a bare
# net/http server started in the same run get the same mixed load, then
# the daemon alone 100,000 requests with made-up methods while its RSS is
# watched.
#
#   bench/serve-load/run.sh            20 s at 200 requests/s, 100k made-up methods, checked
#   bench/serve-load/run.sh --short    5 s, 20k made-up methods (RSS bound 8 MiB), checked
#                                      with the p99 ratio held to 3x (the step of `make test`;
#                                      see below)
#   bench/serve-load/run.sh [flags]    flags go to main.go (-duration, -rate, -unknown,
#                                      -check, -max-ratio, -max-rss-growth)
#
# WARDEN_BENCH_BIN: a directory with warden, warden-core and
# warden-helper already built (`make test` passes bin/); else they are
# built here.
#
# The target is p99 within 2x the bare server's (the full run checks it).
# The short run's p99 is the 10th largest of 1,000 requests: on a shared
# 2-vCPU VM (load average 12-15, Nov 2026) it measured 1.1-2.4x from run to
# run, with errors 0 and RSS +0 MiB every time, so `make test` holds it to
# SHORT_MAX_RATIO: wide enough for that noise, still failing a daemon
# whose requests all got markedly slower. Errors and memory are held to the
# same bounds as the full run (the RSS bound scaled to 20k requests), and
# /metrics may not grow by a series per method.
SHORT_MAX_RATIO=3
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$root"
bin=${WARDEN_BENCH_BIN:-}
if [ -z "$bin" ]; then
	bin=$tmp
	for b in warden warden-core warden-helper; do
		go build -trimpath -ldflags "-s -w" -o "$tmp/$b" "./cmd/$b"
	done
fi
go build -trimpath -ldflags "-s -w" -o "$tmp/bare" ./bench/serve-load/bare
go build -trimpath -o "$tmp/serve-load" ./bench/serve-load
if [ "${1:-}" = "--short" ]; then
	shift
	exec "$tmp/serve-load" -bin "$bin" -bare "$tmp/bare" -duration 5s -unknown 20000 -max-rss-growth 8 -max-ratio "$SHORT_MAX_RATIO" -check "$@"
fi
if [ $# -eq 0 ]; then
	set -- -check
fi
"$tmp/serve-load" -bin "$bin" -bare "$tmp/bare" "$@"
