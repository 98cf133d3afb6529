#!/usr/bin/env bash
# End to end: a published ACP agent (@zed-industries/claude-code-acp, whose
# Bash tool runs commands with ACP client terminals) and an agent on the
# official TypeScript SDK, each driven through `cmdguard acp` by the scripted
# fake editor in scripts/acp/editor.mjs, with a fake model API on loopback.
# It needs node and the npm registry. When they cannot be had within their
# bounds, it says so loudly and does not fail CI; when they can, every check
# must pass.
set -euo pipefail
cd "$(dirname "$0")/.."
printf '\n== ACP end to end (scripts/acp)\n'

skip() {
	printf '\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n'
	printf '!!! SKIPPED: the ACP end-to-end test with real agents did not run:\n!!! %s\n' "$*"
	printf '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n\n'
	exit 0
}

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	{ timeout 300 apt-get update -qq && timeout 300 apt-get install -y -qq nodejs npm; } >/dev/null 2>&1 || skip "node and npm are not installed and apt-get could not install them"
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 18 ]; then
	skip "node $(node --version) is older than 18"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp scripts/acp/package.json scripts/acp/package-lock.json scripts/acp/*.mjs "$work"/
if ! (cd "$work" && timeout 300 npm ci --no-audit --no-fund --loglevel=error >"$work/npm.log" 2>&1); then
	tail -5 "$work/npm.log"
	skip "npm ci failed or did not finish within 300 s (is the npm registry reachable?)"
fi
go build -o "$work/cmdguard" ./cmd/cmdguard

echo "-- claude-code-acp through cmdguard acp"
timeout 300 node "$work/editor.mjs" "$work/cmdguard" node "$work/node_modules/@zed-industries/claude-code-acp/dist/index.js"
if [ -f "$work/agent.mjs" ]; then
	echo "-- an agent on @agentclientprotocol/sdk through cmdguard acp"
	timeout 300 node "$work/editor.mjs" "$work/cmdguard" node "$work/agent.mjs"
fi
