#!/usr/bin/env bash
# The shared store's queue under W workers against today's single SQLite
# daemon, on a throw-away PostgreSQL server (scripts/pg-test.sh).
#   bench/store-queue/run.sh [-tasks 1000] [-workers 3] [-check]
set -euo pipefail
cd "$(dirname "$0")/../.."
exec ./scripts/pg-test.sh go run ./bench/store-queue "$@"
