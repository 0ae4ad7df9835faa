#!/usr/bin/env bash
# Runs a command (the test suite) with one throw-away PostgreSQL server for
# all of it: initdb into a temp dir, a free loopback port, the unix socket
# in the temp dir, trust auth for "postgres"; as the unprivileged postgres
# user when run as root. Exports WARDEN_TEST_PG_URL (internal/testenv
# creates a fresh database per test on it) and stops the server and removes
# the dir afterwards, whether the command passed or failed.
#
#   scripts/pg-test.sh go test ./...
#
# With WARDEN_TEST_PG_URL already set it just runs the command. Without
# PostgreSQL it runs the command anyway: tests that need it skip, and fail
# under CI=true.
set -euo pipefail

if [ -n "${WARDEN_TEST_PG_URL:-}" ]; then
  exec "$@"
fi

bindir=""
if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
  bindir=$(dirname "$(command -v pg_ctl)")
else
  bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1 || true)
fi
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "pg-test: PostgreSQL not found (apt-get install postgresql); its tests skip, or fail under CI=true" >&2
  exec "$@"
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/warden-pg-XXXXXX")
as=()
if [ "$(id -u)" = 0 ]; then
  chown postgres: "$dir"
  as=(runuser -u postgres --)
fi
pg() { (cd "$dir" && "${as[@]}" "$bindir/$1" "${@:2}"); }

stop() {
  pg pg_ctl -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

pg initdb -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync --no-instructions >/dev/null

# A port free now may be taken before the server binds it: try a few.
started=""
for _ in 1 2 3 4 5; do
  port=$((20000 + RANDOM % 40000))
  if pg pg_ctl -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
      start >/dev/null; then
    started=1
    break
  fi
done
if [ -z "$started" ]; then
  echo "pg-test: PostgreSQL would not start; its log:" >&2
  tail -n 20 "$dir/server.log" >&2 || true
  exit 1
fi

export WARDEN_TEST_PG_URL="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
echo "pg-test: PostgreSQL on 127.0.0.1:$port for this run" >&2
"$@"
