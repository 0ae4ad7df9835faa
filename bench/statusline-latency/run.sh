#!/bin/sh
# Status line latency: `warden statusline` as a process against /bin/true and
# a bare Go binary (see main.go). Flags go to main.go: -rounds N, -json,
# -max-median-ms F (exit 1 when a statusline median is over F ms).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$root"
go build -trimpath -ldflags "-s -w" -o "$tmp/warden" ./cmd/warden
go build -trimpath -ldflags "-s -w" -o "$tmp/warden-core" ./cmd/warden-core
go build -o "$tmp/statusline-latency" ./bench/statusline-latency
mkdir "$tmp/bare"
printf 'package main\n\nfunc main() {}\n' >"$tmp/bare/main.go"
(
	cd "$tmp/bare"
	GOWORK=off go mod init bare >/dev/null 2>&1
	GOWORK=off go build -trimpath -ldflags "-s -w" -o "$tmp/bare-go" .
)
"$tmp/statusline-latency" -warden "$tmp/warden" -bare "$tmp/bare-go" "$@"
