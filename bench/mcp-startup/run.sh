#!/bin/sh
# MCP server start-up: `warden mcp` from exec to its tools/list answer over
# stdio, against a bare server built with the same SDK (see main.go).
# Flags go to main.go: -rounds N.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$root"
for c in warden warden-core warden-helper; do
	go build -trimpath -ldflags "-s -w" -o "$tmp/$c" ./cmd/$c
done
go build -trimpath -ldflags "-s -w" -o "$tmp/bare" ./bench/mcp-startup/bare
go build -o "$tmp/mcp-startup" ./bench/mcp-startup
"$tmp/mcp-startup" -warden "$tmp/warden" -bare "$tmp/bare" "$@"
