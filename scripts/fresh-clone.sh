#!/usr/bin/env bash
# fresh-clone.sh — the README's two commands on a fresh clone, as a new
# user on a clean machine runs them (issue 30's must-show).
#
#   scripts/fresh-clone.sh              # a clone of this repository's HEAD
#   scripts/fresh-clone.sh /work/main   # a clone of another repository's HEAD
#   FRESH_DRY=1 scripts/fresh-clone.sh  # set up and clone only, run nothing
#   FRESH_LOG=/tmp/t.log scripts/...    # keep the test command's output
#   FRESH_TEST='go test ./exec' scripts/...  # another test command instead
#                                       # of the README's (a re-run of the
#                                       # packages that failed), same setting
#
# What "fresh" means here:
#   - a new user: run as root, the commands run as FRESH_USER (default
#     cgtest) with a HOME made empty for this run; run as anyone else,
#     as that user with the same empty HOME;
#   - a PATH of only go, git, bash, sh and the basic file and text tools
#     (coreutils, sed, grep, find, diff, tar, gzip): symlinks in a
#     temporary bin directory. zsh, jq, file, gawk, mawk, rg, xxd and
#     strace are never on it, nor python3, make, npm or setpriv, nor
#     util-linux's setsid and unshare, nor curl or perl. (debian:stable-slim
#     has more: util-linux and mount are Essential there, and perl-base;
#     this PATH is the issue's "only Go and git" plus the basic tools, so
#     that every test needing more shows that it skips. The programs a
#     test starts with an empty environment still find /usr/bin through
#     bash's default PATH.);
#   - an empty Go build cache (GOCACHE) and an empty module cache
#     (GOMODCACHE), both in the new HOME;
#   - no network: GOPROXY is a copy of this machine's module download
#     cache (file://), so the modules are downloaded into the empty module
#     cache from a local copy instead of proxy.golang.org; go.sum still
#     checks every one (GOSUMDB=off only stops the look-up of a module
#     go.sum does not hold, which needs the network).
#
# The two commands are read from the clone's README, its first ```sh
# block, so the script follows the README; each runs as written, with bash -c, at the
# clone's root, under nice, and is timed. The README says the first
# prints deny and exits 1 (the default policy ignores .env); the second
# must exit 0. The test command runs with GOFLAGS=-v, which changes only
# what it prints, so that the lines of the tests that skipped (a program
# missing) can be shown. The whole test suite runs: expect minutes.
set -euo pipefail
# The body is one block, read whole before it runs: editing this file
# while it runs (for minutes) cannot change what it does.
{
here=$(cd "$(dirname "$0")/.." && pwd)
repo=${1:-$here}
user=${FRESH_USER:-cgtest}

goexe=$(command -v go) || { echo "fresh-clone: go is not on PATH" >&2; exit 3; }
goexe=$(readlink -f "$goexe")
modcache=$(go env GOMODCACHE)


work=$(mktemp -d "${TMPDIR:-/tmp}/cmdguard-fresh.XXXXXX")
cleanup() { chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
chmod 755 "$work"
home=$work/home
mkdir -p "$home" "$work/bin"

# The PATH: symlinks to what a minimal container has, minus the programs
# some tests need (they must skip with a reason, not fail).
exclude=" zsh jq file gawk mawk awk rg xxd strace python3 make npm node setpriv "
tools=(go git bash sh sed grep egrep fgrep find xargs diff cmp tar gzip)
if command -v dpkg >/dev/null; then
	while read -r f; do tools+=("${f##*/}"); done < <(dpkg -L coreutils | grep -E '^(/usr)?/bin/.')
else
	tools+=(basename cat chmod cp cut date dirname du echo env expr false head id ln ls mkdir mktemp
		mv nice nproc od printf pwd readlink realpath rm rmdir seq sleep sort stat tail tee
		test timeout touch tr true uname uniq wc whoami)
fi
for t in "${tools[@]}"; do
	case $exclude in *" $t "*) continue ;; esac
	if [ "$t" = go ]; then
		ln -sf "$goexe" "$work/bin/go"
	elif p=$(type -P "$t") && [ -x "$p" ]; then # the file: command -v says "printf" for a builtin
		ln -sf "$(readlink -f "$p")" "$work/bin/$t"
	fi
done

# A local module proxy: a copy of the download cache.
mkdir -p "$work/proxy"
cp -r "$modcache/cache/download/." "$work/proxy/"
chmod -R a+rX "$work/proxy"

as_user=()
if [ "$(id -u)" = 0 ] && id "$user" >/dev/null 2>&1; then
	chown -R "$user:" "$home"
	as_user=(setpriv --reuid "$user" --regid "$user" --init-groups)
else
	user=$(id -un)
fi
# run DIR CMD: CMD with bash -c in DIR, as the new user, in the clean
# environment (CI unset: a missing program skips its test).
run() {
	"${as_user[@]}" env -i HOME="$home" USER="$user" PATH="$work/bin" LANG=C.UTF-8 \
		GOCACHE="$home/.cache/go-build" GOMODCACHE="$home/go/pkg/mod" GOPATH="$home/go" \
		GOPROXY="file://$work/proxy" GOSUMDB=off GOFLAGS="${GOFLAGS_RUN:-}" \
		nice -n 10 "$work/bin/bash" -c 'cd "$1" && eval "$2"' _ "$@"
}

echo "repository: $repo ($(git -C "$repo" rev-parse --short HEAD))"
echo "user: $user, HOME and caches in $home (empty), PATH=$work/bin ($(ls "$work/bin" | wc -l) programs)"

for p in zsh jq file gawk rg xxd strace python3 make npm node setpriv setsid unshare curl perl; do
	if PATH=$work/bin command -v "$p" >/dev/null; then echo "fresh-clone: $p is on the clean PATH" >&2; exit 3; fi
done
# The repository belongs to another user: git refuses to read it unless
# a global config says it is safe. That config is for the clone only; the
# clone itself belongs to the new user and the HOME stays empty.
printf '[safe]\n\tdirectory = *\n' >"$work/clone.gitconfig"
run "$home" "GIT_CONFIG_GLOBAL=$work/clone.gitconfig git clone -q $(printf %q "$repo") cmdguard"
clone=$home/cmdguard
echo "cloned into $clone"

# The README's first sh block: the two commands, comments cut.
mapfile -t cmds < <(sed -n '/^```sh$/,/^```$/{/^```sh$/d;/^```$/q;p}' "$clone/README.md" |
	sed -e 's/[[:space:]]\{2,\}#.*$//' -e '/^[[:space:]]*$/d' | head -n 2)
if [ "${#cmds[@]}" -ne 2 ] || [[ ${cmds[1]} != "go test "* ]]; then
	echo "fresh-clone: the README's first sh block does not hold the two commands (check, then go test):" >&2
	printf '  %s\n' "${cmds[@]}" >&2
	exit 3
fi
want=(1 0) # the README: the check prints deny and exits 1; the tests pass
if [ -n "${FRESH_TEST:-}" ]; then
	[[ $FRESH_TEST == "go test "* ]] || { echo "fresh-clone: FRESH_TEST must be a go test command" >&2; exit 3; }
	cmds[1]=$FRESH_TEST
fi

if [ -n "${FRESH_DRY:-}" ]; then # the set-up only: the clone, the tools, the commands
	run "$clone" 'go version && git log --oneline -1 && for p in zsh jq file; do command -v $p || echo "no $p"; done'
	printf 'would run: %s\n' "${cmds[@]}"
	exit 0
fi
# skips LOG: the tests go test -v skipped, grouped by their reason: the
# first line a test printed (after its "=== RUN", "=== CONT" or "=== NAME"
# line; parallel tests print theirs after CONT).
skips() {
	local n r prev=
	mapfile -t skipped < <(grep -E '^[[:space:]]*--- SKIP: ' "$1" | sed -E 's/^[[:space:]]*--- SKIP: ([^ ]+) .*/\1/')
	echo "skipped tests: ${#skipped[@]}, by reason:"
	for n in "${skipped[@]}"; do
		r=$(grep -F -x -A1 -e "=== RUN   $n" -e "=== CONT  $n" -e "=== NAME  $n" "$1" |
			grep -m1 -E '^[[:space:]]+[^ ]+\.go:[0-9]+: ' | sed -E 's/^[[:space:]]+[^ ]+\.go:[0-9]+: //') || true
		printf '%s\t%s\n' "${r:-(printed no reason)}" "$n"
	done | sort | while IFS=$'\t' read -r r n; do
		[ "$r" = "$prev" ] || printf '  %s:\n' "$r"
		printf '      %s\n' "$n"
		prev=$r
	done
}

status=0
for i in 0 1; do
	cmd=${cmds[$i]}
	log=$work/cmd$i.log
	GOFLAGS_RUN=
	[ "$i" = 1 ] && GOFLAGS_RUN=-v
	echo
	echo "\$ $cmd"
	start=$(date +%s%N)
	rc=0
	GOFLAGS_RUN=$GOFLAGS_RUN run "$clone" "$cmd" >"$log" 2>&1 || rc=$?
	end=$(date +%s%N)
	secs=$(((end - start) / 1000000))
	printf 'exit %d (want %d), %d.%03d s wall\n' "$rc" "${want[$i]}" $((secs / 1000)) $((secs % 1000))
	if [ "$i" = 0 ]; then
		echo "($(grep -c '^go: downloading' "$log") modules downloaded from the local proxy)"
		grep -v '^go: downloading' "$log" | head -n 8
	else
		grep -E '^(ok|FAIL|---|\?)[[:space:]]' "$log" | grep -vE '^--- (PASS|SKIP)' || true
		skips "$log"
	fi
	if [ "$rc" != "${want[$i]}" ]; then
		status=1
		echo "fresh-clone: FAILED: \`$cmd\` exited $rc, the README says $((want[i]))"
		tail -n 40 "$log"
	fi
done
[ -z "${FRESH_LOG:-}" ] || cp "$work/cmd1.log" "$FRESH_LOG" # the test command's whole output
exit $status
}
