#!/bin/sh
# Wake-up latency of a pool of workers on PostgreSQL (see main.go): task
# created → claimed, against a bare NOTIFY → LISTEN round trip measured in
# the same run. Starts a throw-away PostgreSQL with scripts/pg-test.sh
# unless WARDEN_TEST_PG_URL names one.
#
#   bench/pool/run.sh            300 tasks, 3 workers, checked (median < 100 ms)
#   bench/pool/run.sh [flags]    flags go to main.go (-tasks, -gap, -workers, -check)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$root"
go build -o "$tmp/pool-bench" ./bench/pool
if [ $# -eq 0 ]; then
	set -- -check
fi
"$root/scripts/pg-test.sh" "$tmp/pool-bench" "$@"
