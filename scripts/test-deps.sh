#!/usr/bin/env bash
# Installs what the test suite needs when it is missing: with apt-get when
# run as root (CI, fresh machines), otherwise it prints what to install;
# then the pinned npm tools (Claude Code, the other agent CLIs, ccusage)
# into the test cache (internal/testenv/pinnedtools), which a second run
# reuses. Idempotent and quiet when everything is there. Under CI=true a
# pinned tool that cannot be had fails here, before any test runs.
set -euo pipefail
cd "$(dirname "$0")/.."

# command -> Debian package
declare -A need=(
  [git]=git
  [make]=make
  [node]=nodejs
  [npm]=npm
  [sqlite3]=sqlite3
  [tmux]=tmux
  [chromium]=chromium   # internal/dashboard drives it headless (chromedp)
  [systemd-analyze]=systemd
  [gcc]=gcc   # go test -race (make race) needs cgo and a C compiler
)

missing=()
for cmd in "${!need[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${need[$cmd]}")
done
# postgresql: scripts/pg-test.sh and internal/testenv run initdb/pg_ctl for
# the store's PostgreSQL tests; Debian keeps them off PATH.
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  missing+=(postgresql)
fi
if [ ${#missing[@]} -eq 0 ]; then
  :
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "test-deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "test-deps: missing ${missing[*]}; install them (e.g. sudo apt-get install ${missing[*]})" >&2
  # Tests that need them skip locally and fail under CI=true.
fi

# The pinned npm tools, installed side by side into an empty cache (one
# by one inside the tests they took 105 s, Copilot's 48 s of it, under the
# e2e package's go test timeout); a filled cache costs a `--version` each.
"${GO:-go}" run -trimpath ./internal/testenv/pinnedtools
