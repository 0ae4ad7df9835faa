#!/bin/sh
# Usage-report bench (issue #6): on a generated ~500 MB transcript corpus
# (warm page cache), interleaved runs of `warden usage blocks --json` with an
# empty cache, the pinned ccusage (`ccusage claude blocks --json --offline`),
# `cat` of every file to /dev/null, and warden's warm (cached) runs with
# nothing new and after one response is appended to a session (its own
# directory in the corpus, removed afterwards); medians of wall and CPU
# seconds, peak memory, ratios against the targets.
#
#   bench/usage/run.sh [-mb 500] [-rounds 5] [-corpus DIR] [-check]
#   bench/usage/run.sh -smoke        # 20 MB corpus, 1 round, no ccusage
#
# Not part of `make test` (minutes on a 2-core machine). The corpus is kept in
# ${WARDEN_BENCH_CORPUS:-$HOME/.cache/warden-bench/usage-<mb>mb} between runs.
set -eu
cd "$(dirname "$0")/../.."
MB=500 ROUNDS=5 CHECK= SMOKE= CORPUS=
while [ $# -gt 0 ]; do
	case "$1" in
	-mb) MB=$2; shift ;;
	-rounds) ROUNDS=$2; shift ;;
	-corpus) CORPUS=$2; shift ;;
	-check) CHECK=-check ;;
	-smoke) SMOKE=1 MB=20 ROUNDS=1 ;;
	*) echo "unknown flag $1" >&2; exit 2 ;;
	esac
	shift
done
CACHE=${WARDEN_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/warden-e2e}
CORPUS=${CORPUS:-${WARDEN_BENCH_CORPUS:-$HOME/.cache/warden-bench/usage-${MB}mb}}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
go build -trimpath -ldflags "-s -w" -o "$OUT/warden" ./cmd/warden
go build -trimpath -ldflags "-s -w" -o "$OUT/warden-core" ./cmd/warden-core
go build -o "$OUT/usage-bench" ./bench/usage
CC=
if [ -z "$SMOKE" ]; then
	CC="$CACHE/ccusage-20.0.24/node_modules/.bin/ccusage"
	if [ ! -x "$CC" ]; then
		mkdir -p "$CACHE"
		npm install --no-audit --no-fund --prefix "$CACHE/ccusage-20.0.24" ccusage@20.0.24 >/dev/null
	fi
fi
exec "$OUT/usage-bench" run -corpus "$CORPUS" -mb "$MB" -rounds "$ROUNDS" -warden "$OUT/warden" ${CC:+-ccusage "$CC"} $CHECK
