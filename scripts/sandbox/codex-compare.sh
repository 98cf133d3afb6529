#!/usr/bin/env bash
# codex-compare.sh: the start cost of cmdguard's sandbox next to the
# sandbox people already run, Codex CLI's Linux sandbox (namespaces,
# Landlock, seccomp), on this machine: CPU time (user+sys of the whole
# process tree) and wall time of
#
#   codex sandbox -- true
#   cmdguard run --sandbox --cwd P -- true
#   cmdguard run --cwd P -- true     (the built-in policy: sandboxed where
#                                     the kernel allows, after a probe)
#   cmdguard run --policy NOSB --cwd P -- true   (the built-in policy with
#                                     sandbox.enabled: false: unsandboxed)
#
# interleaved (one of each in turn, so that load from elsewhere hits all
# alike), RUNS times each (default 21), medians and ratios printed.
# Targets (issue 25): cmdguard sandboxed <= 0.6x Codex's CPU and
# <= 1.5x the unsandboxed run.
#
# It installs @openai/codex from npm into a temporary directory
# (CODEX_VERSION picks a version; CODEX_BIN=path skips the install; the
# native binary of its platform package is measured, not the Node.js
# launcher) and
# builds cmdguard from this repository (CMDGUARD=path skips the build).
# Where Codex cannot be installed or its sandbox cannot run, it says so
# loudly and exits 0, or 1 when CI is set (CI=true): a CI run must not
# pass without the figures.
#
#   bash scripts/sandbox/codex-compare.sh [RUNS]
set -euo pipefail

runs=${1:-21}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Not below /tmp: Codex refuses to put its helpers in a CODEX_HOME there.
work=$(mktemp -d /var/tmp/codex-compare.XXXXXX)
trap 'rm -rf "$work"' EXIT

skip() {
	echo "codex-compare: SKIPPED: $*" >&2
	if [ -n "${CI:-}" ] && [ "${CI}" != false ]; then
		echo "codex-compare: CI is set: failing instead of skipping" >&2
		exit 1
	fi
	exit 0
}

codex=${CODEX_BIN:-} launcher=
if [ -z "$codex" ]; then
	command -v npm >/dev/null || skip "npm is not installed: cannot install @openai/codex"
	if ! npm install --no-save --no-audit --no-fund --prefix "$work/npm" "@openai/codex${CODEX_VERSION:+@$CODEX_VERSION}" >"$work/npm.log" 2>&1; then
		tail -20 "$work/npm.log" >&2
		skip "npm install @openai/codex failed (log above)"
	fi
	launcher=$work/npm/node_modules/.bin/codex
	codex=$(find "$work/npm/node_modules/@openai" -path '*/bin/codex' -type f -perm -u+x 2>/dev/null | head -1)
	[ -n "$codex" ] || skip "no native codex binary in the npm package (no platform package for $(uname -m)?)"
fi
[ -x "$codex" ] || skip "no codex binary at $codex"
export CODEX_HOME=$work/codex-home # no person's configuration, nothing written to theirs
mkdir -p "$CODEX_HOME"

cmdguard=${CMDGUARD:-}
if [ -z "$cmdguard" ]; then
	(cd "$here" && go build -o "$work/cmdguard" ./cmd/cmdguard)
	cmdguard=$work/cmdguard
fi

proj=$work/proj
mkdir -p "$proj"
cd "$proj"
# The built-in policy, its sandbox turned off.
nosb=$work/nosandbox.yaml
sed '/^sandbox:/,/^[^ ]/ s/^  enabled: true/  enabled: false/' "$here/policy/default.yaml" >"$nosb"
grep -q '^  enabled: false' "$nosb" || skip "could not turn the sandbox off in a copy of policy/default.yaml"

# The sandbox Codex offers on this version: `codex sandbox -- CMD` (0.169:
# its default profile for the working directory, P here; --cd needs a
# named --permission-profile), earlier `codex sandbox linux -- CMD`.
if "$codex" sandbox -- true >"$work/probe.log" 2>&1; then
	sub=(sandbox --)
elif "$codex" sandbox linux -- true >"$work/probe.log" 2>&1; then
	sub=(sandbox linux --)
else
	cat "$work/probe.log" >&2
	skip "codex's sandbox does not run here (output above)"
fi
"$cmdguard" run --sandbox --cwd "$proj" -- true || skip "cmdguard run --sandbox does not run here"
"$cmdguard" run --policy "$nosb" --cwd "$proj" --format json -- true | grep -q '"sandbox": null' ||
	skip "cmdguard run --policy $nosb did not run true unsandboxed"

kinds=(codex sandboxed default plain)
declare -A cmd label
cmd[codex]="$codex ${sub[*]} true"
label[codex]="codex ${sub[*]} true (native)"
cmd[sandboxed]="$cmdguard run --sandbox --cwd $proj -- true"
label[sandboxed]="cmdguard run --sandbox --cwd P -- true"
cmd[default]="$cmdguard run --cwd $proj -- true"
label[default]="cmdguard run --cwd P -- true (built-in policy)"
cmd[plain]="$cmdguard run --policy $nosb --cwd $proj -- true"
label[plain]="cmdguard run --policy NOSB --cwd P -- true (unsandboxed)"
if [ -n "$launcher" ]; then
	kinds+=(launcher)
	cmd[launcher]="$launcher ${sub[*]} true"
	label[launcher]="codex ${sub[*]} true (npm's Node.js launcher)"
fi
if [ -n "${CMDGUARD_BEFORE:-}" ]; then
	kinds+=(before)
	cmd[before]="$CMDGUARD_BEFORE run --sandbox --cwd $proj -- true"
	label[before]="CMDGUARD_BEFORE run --sandbox --cwd P -- true"
fi

echo "codex:    $("$codex" --version 2>&1 | head -1)"
echo "machine:  $(uname -sr), $(nproc) CPUs"
echo "runs:     $runs of each, interleaved"

# measure KIND: appends "wall cpu" (ms; cpu = user+sys of the process
# and the children it waited for) of one run to $work/KIND.
measure() {
	local TIMEFORMAT='%3R %3U %3S' t
	# shellcheck disable=SC2086 # the paths have no spaces: made here
	t=$({ time ${cmd[$1]} >/dev/null 2>&1; } 2>&1)
	awk -v t="$t" 'BEGIN { split(t, f, " "); printf "%.1f %.1f\n", f[1]*1000, (f[2]+f[3])*1000 }' >>"$work/$1.times"
}

for _ in 1 2 3; do # warm up (page cache, the first exec of each)
	for k in "${kinds[@]}"; do
		# shellcheck disable=SC2086
		${cmd[$k]} >/dev/null 2>&1 || true
	done
done
for ((i = 0; i < runs; i++)); do
	for k in "${kinds[@]}"; do measure "$k"; done
done

median() { # KIND COLUMN
	sort -n -k"$2" "$work/$1.times" | awk -v c="$2" '{ v[NR] = $c } END { print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2 }'
}
printf '%-56s %8s %8s\n' "median of $runs" "CPU ms" "wall ms"
for k in "${kinds[@]}"; do
	printf '%-56s %8s %8s\n' "${label[$k]}" "$(median "$k" 2)" "$(median "$k" 1)"
done
ratio() { awk -v a="$(median "$1" "$3")" -v b="$(median "$2" "$3")" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }'; }
echo "cmdguard sandboxed / codex (native): CPU $(ratio sandboxed codex 2)x  wall $(ratio sandboxed codex 1)x  (target: CPU <= 0.6x)"
[ -n "$launcher" ] && echo "cmdguard sandboxed / codex (launcher): CPU $(ratio sandboxed launcher 2)x  wall $(ratio sandboxed launcher 1)x"
echo "cmdguard sandboxed / unsandboxed:    CPU $(ratio sandboxed plain 2)x  wall $(ratio sandboxed plain 1)x  (target: <= 1.5x)"
[ -n "${CMDGUARD_BEFORE:-}" ] && echo "cmdguard sandboxed / CMDGUARD_BEFORE: CPU $(ratio sandboxed before 2)x  wall $(ratio sandboxed before 1)x"
exit 0
