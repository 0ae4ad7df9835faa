#!/usr/bin/env bash
# Makes a home that looks like a real user's after following the README —
# warden installed by `make install` and on PATH, a config with tempo on
# and a pacing safety buffer, pacing figures near the limits, Claude Code
# transcripts and credentials, and a `claude` that fails first on PATH —
# and runs a command (the test suite: `make test` does) with HOME there
# and PATH as such a user has it. A test that reads the developer's home,
# config, store, transcripts or PATH instead of its own fails or hangs in
# it, so the leak is found before a user finds it. The home is removed
# afterwards.
#
#   scripts/polluted-home.sh BIN COMMAND [ARG...]   BIN: what `make build` filled
set -euo pipefail

usage="usage: polluted-home.sh BIN COMMAND [ARG...]"
bin=$(cd "${1:?$usage}" && pwd)
shift
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
home=$(mktemp -d "${TMPDIR:-/tmp}/warden-polluted-home-XXXXXX")
trap 'rm -rf "$home"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The toolchain's caches stay where they are (a new home would download
# and build everything again); only the user's own files move.
for v in GOCACHE GOMODCACHE GOPATH GOENV; do
	export "$v=$(go env "$v")"
done
export npm_config_cache="${npm_config_cache:-$HOME/.npm}"
export WARDEN_E2E_CACHE="${WARDEN_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/warden-e2e}"

# The claude stand-in comes first on PATH: any test that runs "claude" from
# PATH instead of the pinned CLI it was given fails loudly.
mkdir -p "$home/stand-in"
cat >"$home/stand-in/claude" <<'SH'
#!/bin/sh
echo "polluted home: a test ran the user's claude ($0 $*) instead of its own" >&2
exit 97
SH
chmod +x "$home/stand-in/claude"
for b in ccusage; do
	printf '#!/bin/sh\necho "polluted home: a test ran the user'"'"'s %s" >&2\nexit 97\n' "$b" >"$home/stand-in/$b"
	chmod +x "$home/stand-in/$b"
done

export HOME="$home"
unset WARDEN_HOME CLAUDE_CONFIG_DIR XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME XDG_STATE_HOME
mkdir -p "$home/.local/bin" "$home/.claude"
# ~/.local/bin on PATH, as on most distributions: install links warden there.
export PATH="$home/stand-in:$home/.local/bin:$PATH"

# `make install` is `make build` (done: BIN) and then the built warden's install.
"$bin/warden" install --yes >/dev/null

cat >"$home/.warden/config.toml" <<'TOML'
# A user's config: the tempo judge on at every Stop (it runs an LLM: the
# failing claude above), and pacing throttling early.
[tempo]
enabled = true

[pacing]
safety_buffer_pct = 50
base_delay = 5
max_delay = 350
TOML

# Subscription credentials, as Claude Code keeps them (a token that no
# server accepts: a test that polls the usage endpoint with it fails).
now=$(date +%s)
cat >"$home/.claude/.credentials.json" <<JSON
{"claudeAiOauth":{"accessToken":"sk-ant-oat01-polluted-home-not-a-token","refreshToken":"x","expiresAt":$(((now + 86400) * 1000)),"scopes":["user:inference","user:profile"],"subscriptionType":"max"}}
JSON
chmod 600 "$home/.claude/.credentials.json"

# Pacing figures near both limits, recorded as Claude Code's status line
# would hand them over: every paced hook would sleep for minutes.
printf '{"session_id":"polluted","transcript_path":"%s","cwd":"%s","model":{"id":"claude-opus-4-1","display_name":"Opus"},"workspace":{"current_dir":"%s","project_dir":"%s"},"rate_limits":{"five_hour":{"used_percentage":97,"resets_at":%d},"seven_day":{"used_percentage":96,"resets_at":%d}}}' \
	"$home/.claude/projects/-home-dev-proj/polluted.jsonl" "$home" "$home" "$home" $((now + 3 * 3600)) $((now + 2 * 86400)) |
	"$bin/warden" statusline >/dev/null

# A month of transcripts with heavy usage, the newest today.
proj="$home/.claude/projects/-home-dev-proj"
mkdir -p "$proj"
for d in $(seq 0 30); do
	ts=$(date -u -d "@$((now - d * 86400))" +%Y-%m-%dT%H:%M:%S.000Z)
	printf '{"type":"assistant","sessionId":"polluted-%d","timestamp":"%s","requestId":"req_%d","uuid":"u-%d","message":{"id":"msg_polluted_%d","model":"claude-opus-4-1","role":"assistant","usage":{"input_tokens":90000,"output_tokens":40000,"cache_creation_input_tokens":500000,"cache_read_input_tokens":4000000}}}\n' \
		"$d" "$ts" "$d" "$d" "$d" >>"$proj/polluted-$d.jsonl"
done

echo "polluted-home: running in $home (warden installed, tempo on, pacing at 97%, a failing claude first on PATH)" >&2
rc=0
"$@" || rc=$?
# The installed warden's keeper outlives its last hook by design (it idles
# out after 30 min): stop it with the home it serves.
pkill -f "^$home/" 2>/dev/null || true
# Each step's wall time, so a CI log shows where the run's minutes went.
echo "polluted-home: finished in ${SECONDS}s (exit $rc)" >&2
exit "$rc"
