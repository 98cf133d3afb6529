#!/usr/bin/env bash
# Regenerates the transcripts of docs/cli.md from the CLI itself: every
# "$ cmdguard …" line in a console block is run and the output under it
# replaced. TestDocs checks the result, so run this after changing a help
# text: bash scripts/gencli.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/cmdguard
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/cmdguard
out=$(mktemp)
skip=0
while IFS= read -r line; do
	if ((skip)); then
		[[ $line == '```' ]] || continue
		skip=0
	fi
	printf '%s\n' "$line"
	if [[ $line == '$ cmdguard '* ]]; then
		read -ra argv <<<"${line#'$ cmdguard '}"
		"$bin" "${argv[@]}" 2>&1 || true
		skip=1
	fi
done < docs/cli.md > "$out"
mv "$out" docs/cli.md
