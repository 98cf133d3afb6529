#!/usr/bin/env bash
# CI for `cmdguard serve` (issue 13), called by .ci/run: the AIO sandbox
# guide's own curl examples against the server, and the AIO TypeScript
# SDK driver when the SDK's source is given.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v curl >/dev/null || need+=(curl)
command -v jq >/dev/null || need+=(jq)
if ((${#need[@]})); then
	apt-get update -qq && apt-get install -y -qq "${need[@]}"
fi

scripts/serve/aio-curl.sh

# The AIO TypeScript SDK is not on npm: its source is the public repository
# agent-infra/sandbox (sdk/js). CI does not fetch it; given a checkout in
# $AIO_SANDBOX_SDK, the driver builds it in a temp dir and runs against
# cmdguard serve.
if [ -n "${AIO_SANDBOX_SDK:-}" ]; then
	timeout 600 scripts/serve/aio-sdk.sh "$AIO_SANDBOX_SDK"
else
	echo "############################################################"
	echo "# SKIPPED: the AIO TypeScript SDK driver (scripts/serve/aio-sdk.sh)"
	echo "# needs the SDK source: set AIO_SANDBOX_SDK=/path/to/agent-infra/sandbox/sdk/js"
	echo "############################################################"
fi
