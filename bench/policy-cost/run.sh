#!/bin/sh
# Policy cost: the median evaluation of an everyday command and of the
# heavier bash mix (BenchmarkEverydayCommand, BenchmarkEvaluateBash in
# internal/policy), split into the reading (callfacts.Normalize) and the
# rules (Engine.Evaluate), each against a baseline measured in the same
# run: parsing the same text alone with mvdan.cc/sh. Absolute times swing
# with the machine's load; the ratio x-parse is what to compare across
# runs and builds, so creep from added rules shows as a growing ratio.
#
#   bench/policy-cost/run.sh [COUNT] [BENCHTIME]   defaults: 5 runs of 2000x
#
# Prints one line per benchmark: the median over COUNT runs of each
# per-run median. The bar (docs/guards.md): eval ≤ 50 µs median.
#
# A change meant to cut the cost without changing a verdict is checked with
# bench/policy-cost/verdicts: run it on both builds and diff (no line may
# differ):  go run ./bench/policy-cost/verdicts [SET.jsonl…] > after.txt
set -eu
cd "$(dirname "$0")/../.."
count=${1:-5}
benchtime=${2:-2000x}
go test -run '^$' -bench 'BenchmarkEverydayCommand|BenchmarkEvaluateBash' \
	-benchtime "$benchtime" -count "$count" ./internal/policy/ |
awk '
/^Benchmark/ {
	name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark/, "", name)
	names[name] = 1; n[name]++
	for (i = 3; i < NF; i += 2) { v[name, $(i+1), n[name]] = $i; units[$(i+1)] = 1 }
}
function median(name, unit,   k, m, a, i, j, t) {
	m = n[name]
	for (k = 1; k <= m; k++) a[k] = v[name, unit, k] + 0
	for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j+1] = a[j]; a[j+1] = t }
	return a[int((m + 1) / 2)]
}
END {
	printf "%-16s %5s %10s %10s %10s %10s %8s\n", "benchmark", "runs", "eval µs", "read µs", "rules µs", "parse µs", "x-parse"
	for (name in names) {
		printf "%-16s %5d %10.1f %10.1f %10.1f %10.2f %8.1f\n", name, n[name],
			median(name, "median-ns/eval") / 1000, median(name, "median-ns/read") / 1000,
			median(name, "median-ns/rules") / 1000, median(name, "median-ns/parse-only") / 1000,
			median(name, "x-parse")
	}
}'
