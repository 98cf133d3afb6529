#!/usr/bin/env bash
# The Codex importer against its own oracle: `codex execpolicy check` and
# `cmdguard check` must agree on every command below, for rules converted
# by `cmdguard import codex`. Usage: scripts/agents/execpolicy.sh [RULES]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
rules=${1:-$repo/adapter/settings/testdata/import/default.rules}
codex=$here/node_modules/.bin/codex
work=$(mktemp -d /tmp/cmdguard-execpolicy.XXXXXX)
trap 'rm -rf "$work"' EXIT
(cd "$repo" && go build -o "$work/cmdguard" ./cmd/cmdguard)
mkdir -p "$work/proj" "$work/codex-home"
"$work/cmdguard" import codex "$rules" --out "$work/proj/.cmdguard.yaml" 2> "$work/warnings" >/dev/null
fails=0
while IFS= read -r cmd; do
	[ -n "$cmd" ] || continue
	# shellcheck disable=SC2086 # the command's words are codex's argv
	native=$(CODEX_HOME=$work/codex-home "$codex" execpolicy check --rules "$rules" $cmd 2>/dev/null |
		node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>console.log(({allow:"allow",prompt:"ask",forbidden:"deny"})[JSON.parse(s).decision]||"ask"))')
	set +e
	(cd "$work/proj" && "$work/cmdguard" check -- "$cmd" >/dev/null 2>&1)
	rc=$?
	set -e
	case $rc in 0) ours=allow ;; 1) ours=deny ;; 2) ours=ask ;; *) ours="error($rc)" ;; esac
	if [ "$native" = "$ours" ]; then r=ok; else r=FAIL; fails=$((fails + 1)); fi
	printf '  %-4s %-28s codex execpolicy: %-6s cmdguard: %s\n' "$r" "$cmd" "$native" "$ours"
done <<'EOF_CMDS'
git push origin main
git fetch
git status
git log -p
git reset --hard HEAD
git reset HEAD
npm run test
npm run lint --fix
npm run build
npm install
rm -rf build
rm -r build
cargo build --release
cargo test
ls
EOF_CMDS
echo "warnings of the import:"; sed 's/^/  /' "$work/warnings"
[ $fails -eq 0 ] || { echo "$fails disagreement(s)"; exit 1; }
echo "codex execpolicy and cmdguard agree"
