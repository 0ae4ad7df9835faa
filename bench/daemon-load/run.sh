#!/bin/sh
# Load test of `warden serve` on loopback (see main.go).
#
#   bench/daemon-load/run.sh            30 s at 200 requests/s, checked
#   bench/daemon-load/run.sh --short    5 s smoke run, checked
#   bench/daemon-load/run.sh [flags]    flags go to main.go (-duration, -rate, -writes, -check)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$root"
for b in warden warden-core warden-helper; do
	go build -trimpath -ldflags "-s -w" -o "$tmp/$b" "./cmd/$b"
done
go build -o "$tmp/daemon-load" ./bench/daemon-load
if [ "${1:-}" = "--short" ]; then
	shift
	exec "$tmp/daemon-load" -bin "$tmp" -duration 5s -check "$@"
fi
if [ $# -eq 0 ]; then
	set -- -check
fi
"$tmp/daemon-load" -bin "$tmp" "$@"
