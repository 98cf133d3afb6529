#!/usr/bin/env bash
# capture.sh — cmdguard run's capture against a real pipe consumer.
#
# Times `cmdguard run --format MODE --output-limit 1MiB -- 'head -c SIZE
# /dev/zero'` in json and text mode against `head -c SIZE /dev/zero | cat
# > /dev/null`, RUNS times interleaved, and prints the median seconds,
# the throughput ratio to cat (above 1 is faster than cat) and the peak
# RSS of cmdguard (GNU time). NULs are the worst case for JSON: six bytes
# each escaped.
#
#   scripts/capture.sh                 # 1 GB, 5 runs
#   SIZE=500000000 RUNS=3 scripts/capture.sh
set -euo pipefail
cd "$(dirname "$0")/.."
size=${SIZE:-1000000000}
runs=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=${CMDGUARD:-}
if [ -z "$bin" ]; then
	go build -o "$work/cmdguard" ./cmd/cmdguard
	bin=$work/cmdguard
fi
mkdir "$work/p"
printf 'version: 1\nallow: [head]\nrules: {path.outside_root: allow}\n' >"$work/p/.cmdguard.yaml"
cmd="head -c $size /dev/zero"
for _ in $(seq "$runs"); do
	for mode in cat json text; do
		if [ "$mode" = cat ]; then
			/usr/bin/time -f '%e %M' -o "$work/t" bash -c "$cmd | cat >/dev/null"
		else
			(cd "$work/p" && /usr/bin/time -f '%e %M' -o "$work/t" "$bin" run --format "$mode" --output-limit 1MiB -- "$cmd" >/dev/null)
		fi
		cat "$work/t" >>"$work/$mode"
	done
done
med() { sort -n -k"$2" "$1" | awk -v k="$2" '{a[NR]=$k} END {print a[int((NR+1)/2)]}'; }
c=$(med "$work/cat" 1)
printf '%-5s %8s %14s %12s\n' mode median_s vs_cat peak_rss_kib
for mode in cat json text; do
	s=$(med "$work/$mode" 1)
	printf '%-5s %8s %14s %12s\n' "$mode" "$s" "$(awk -v a="$s" -v b="$c" 'BEGIN {printf "x%.2f", b / a}')" "$(med "$work/$mode" 2)"
done
echo "command: $cmd; $runs runs, interleaved; --output-limit 1MiB; binary: $bin"
