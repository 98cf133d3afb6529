#!/usr/bin/env bash
# scale.sh — does a check cost the same in a big repository?
#
# Builds projects of 0, 10k, 100k and 1M empty files (100 per directory,
# three levels deep, a .cmdguardignore in the root and in every tenth
# directory) on tmpfs, then times `cmdguard check -- 'git status'` in each,
# RUNS times, rounds interleaved across the projects (the machine may be
# shared), and prints the median and its ratio to the empty project.
#
#   scripts/scale.sh                        # the figures of issue 12
#   CMDGUARD=/path/to/cmdguard scripts/scale.sh   # another build
#   SIZES="0 100000" RUNS=50 CHECK='grep -r x pkg000' scripts/scale.sh
#
# The 1M project takes about 1 GB of tmpfs memory and ~15 s to build; it
# is removed at exit. SCALE_DIR picks another place than /dev/shm.
set -euo pipefail
cd "$(dirname "$0")/.."

sizes=${SIZES:-"0 10000 100000 1000000"}
runs=${RUNS:-30}
check=${CHECK:-git status}
base=${SCALE_DIR:-/dev/shm}
[ -d "$base" ] && [ -w "$base" ] || base=${TMPDIR:-/tmp}
work=$(mktemp -d "$base/cmdguard-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT

bin=${CMDGUARD:-}
if [ -z "$bin" ]; then
	go build -o "$work/cmdguard" ./cmd/cmdguard
	bin=$work/cmdguard
fi
go build -o "$work/mkrepo" scripts/mkrepo.go

for n in $sizes; do
	start=$(date +%s)
	"$work/mkrepo" "$work/repo-$n" "$n"
	echo "built $n files in $(( $(date +%s) - start )) s" >&2
done

# One check, in µs, and its exit status in $work/status-$n.
one() {
	local dir=$1 n=$2 s e rc=0
	s=$(date +%s%N)
	(cd "$dir" && "$bin" check -- "$check" >/dev/null 2>"$work/stderr-$n") || rc=$?
	e=$(date +%s%N)
	echo "$rc" >"$work/status-$n"
	echo $(( (e - s) / 1000 )) >>"$work/times-$n"
}

for _ in $(seq "$runs"); do
	for n in $(printf '%s\n' $sizes | shuf); do # a new order each round
		one "$work/repo-$n" "$n"
	done
done

median() { sort -n "$1" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
first=${sizes%% *}
m0=$(median "$work/times-$first")
printf '%-9s %10s %8s %6s\n' files median_us ratio exit
for n in $sizes; do
	m=$(median "$work/times-$n")
	printf '%-9s %10s %8s %6s\n' "$n" "$m" "$(awk -v a="$m" -v b="$m0" 'BEGIN {printf "x%.2f", a / b}')" "$(cat "$work/status-$n")"
	if [ "$(cat "$work/status-$n")" = 3 ]; then
		sed 's/^/    /' "$work/stderr-$n" | head -3
	fi
done
echo "command: cmdguard check -- '$check'; $runs runs each, interleaved; binary: $bin"
