#!/usr/bin/env bash
# benchcmp.sh: the root package's check benchmarks of another commit next
# to the working tree's, interleaved (one round of each in turn, so that
# load from elsewhere hits both alike). For each benchmark it prints the
# median ns/op and allocs/op of both, and the median of the per-round
# ratios new/old: on a noisy machine a ratio of a pair run side by side
# says more than two medians.
#
#   scripts/benchcmp.sh BASE [ROUNDS] [REGEX] [BENCHTIME]
#
# BASE is a commit (e.g. main, 1849ee6); ROUNDS defaults to 7; REGEX to
# the benchmarks issue 23 names (typical, cold and warm, with Rego);
# BENCHTIME to 2000x.
set -euo pipefail
base=${1:?usage: benchcmp.sh BASE [ROUNDS] [REGEX] [BENCHTIME]}
rounds=${2:-7}
regex=${3:-'^Benchmark(Check|CheckTypical|CheckTypicalCold|CheckTypicalRego|CheckTypicalRegoCold|CheckCold)$'}
benchtime=${4:-2000x}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/benchcmp.XXXXXX)
trap 'git -C "$repo" worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

git -C "$repo" worktree add --detach -q "$work/base" "$base"
(cd "$work/base" && go test -c -o "$work/old.test" .)
(cd "$repo" && go test -c -o "$work/new.test" .)

for i in $(seq "$rounds"); do
	for side in old new; do
		# The tests read testdata relative to the package directory.
		dir=$repo
		[ "$side" = old ] && dir=$work/base
		(cd "$dir" && "$work/$side.test" -test.run '^$' -test.bench "$regex" -test.benchmem -test.benchtime "$benchtime") |
			awk -v side="$side" -v round="$i" '/^Benchmark/ {
				name = $1; sub(/-[0-9]+$/, "", name)
				for (k = 3; k <= NF; k++) { if ($k == "ns/op") ns = $(k-1); if ($k == "allocs/op") al = $(k-1) }
				print side, round, name, ns, al
			}' >>"$work/results"
	done
	echo "round $i of $rounds done" >&2
done

printf "%-32s %12s %12s %10s %10s %8s\n" benchmark "old ns/op" "new ns/op" "old allocs" "new allocs" "new/old"
awk '
function median(arr, n,    i, j, t) {
	for (i = 2; i <= n; i++) { t = arr[i]; for (j = i - 1; j >= 1 && arr[j] > t; j--) arr[j+1] = arr[j]; arr[j+1] = t }
	return n % 2 ? arr[(n+1)/2] : (arr[n/2] + arr[n/2+1]) / 2
}
{ key = $3; names[key] = 1; ns[$1, key, $2] = $4; al[$1, key] = $5; if ($2 > R) R = $2 }
END {
	for (key in names) {
		n = 0; no = 0; nn = 0
		for (r = 1; r <= R; r++) {
			if ((("old", key, r) in ns) && (("new", key, r) in ns)) {
				ratio[++n] = ns["new", key, r] / ns["old", key, r]
				o[++no] = ns["old", key, r]; w[++nn] = ns["new", key, r]
			}
		}
		if (n == 0) continue
		printf "%-32s %12.0f %12.0f %10s %10s %8.3f\n", key, median(o, no), median(w, nn), al["old", key], al["new", key], median(ratio, n)
	}
}' "$work/results" | sort
