#!/usr/bin/env bash
# Real MCP clients against `cmdguard mcp` (called by .ci/run):
#   scripts/mcp/client.mjs      the official TypeScript client (@modelcontextprotocol/sdk)
#   scripts/mcp/claude/run.mjs  the real Claude Code, offline, against a fake model API on 127.0.0.1
# Each runs when its npm install finishes within a bounded time; when the
# registry is unreachable it says so LOUDLY and is skipped without failing
# CI. Once installed, its checks must pass.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/cmdguard
go build -o "$bin" ./cmd/cmdguard

skip() {
	printf '\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n'
	printf '!!! SKIPPED: %s\n' "$*"
	printf '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n\n'
}

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	skip "node/npm are not installed: the MCP real-client checks did not run"
	exit 0
fi

# npm_install DIR: a clean install from the lock file, bounded in time.
npm_install() {
	timeout "${NPM_TIMEOUT:-300}" npm ci --prefix "$1" --no-audit --no-fund --loglevel=error >/tmp/cmdguard-npm.log 2>&1
}

if npm_install scripts/mcp; then
	timeout 120 node scripts/mcp/client.mjs "$bin"
else
	tail -5 /tmp/cmdguard-npm.log || true
	skip "npm ci of @modelcontextprotocol/sdk failed or timed out: the TypeScript MCP client check did not run"
fi

if npm_install scripts/mcp/claude; then
	timeout 300 node scripts/mcp/claude/run.mjs "$bin"
else
	tail -5 /tmp/cmdguard-npm.log || true
	skip "npm ci of @anthropic-ai/claude-code failed or timed out: the Claude Code MCP check did not run"
fi
