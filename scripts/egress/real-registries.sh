#!/usr/bin/env bash
# real-registries.sh: the sandbox's egress proxy against the real
# registries, for a person to run by hand on a machine that reaches
# them (CI must not: its tests have no network beyond loopback; the
# automated tests use loopback registries, see egress_registry_test.go).
#
# Through `cmdguard run --sandbox`, with the embedded default policy
# (its sandbox.network lists the Go, npm, PyPI and crates registries;
# its installs group allows these two under that sandbox only):
#   1. npm install of a small package (is-number) succeeds;
#   2. go mod download of a small module (rsc.io/quote) succeeds;
# then, with a policy that lets the probes through the gate (default:
# allow, redirect.network: allow) and keeps the default's sandbox and
# host list, so that only the sandbox stands:
#   3. curl to a host not listed (example.org) is refused, with the
#      reason on stderr;
#   4. a listed host on an unlisted port is refused;
#   5. a direct TCP connect to an IP address, a UDP packet and a DNS
#      query for an unlisted name all fail.
# Each step prints PASS or FAIL; the exit status is the number of FAILs.
#
# Usage: scripts/egress/real-registries.sh [path/to/cmdguard]
# (default: built from this checkout into a temporary directory).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
cg=${1:-}
if [ -z "$cg" ]; then
	echo "building cmdguard..."
	(cd "$here" && go build -o "$tmp/cmdguard" ./cmd/cmdguard) || exit 1
	cg=$tmp/cmdguard
fi
proj=$tmp/proj
mkdir -p "$proj" "$tmp/home"
printf '{"name":"p","version":"1.0.0","private":true}\n' >"$proj/package.json"
printf 'module example.com/p\n\ngo 1.21\n' >"$proj/go.mod"
export HOME=$tmp/home GOPATH=$tmp/gopath GOFLAGS=-mod=mod GOTOOLCHAIN=local
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
fails=0
policy=() # the built-in policy; then the probes'
step() { # step NAME WANT(0: success, 1: failure) COMMAND
	local name=$1 want=$2 cmd=$3 rc
	printf '\n== %s\n$ cmdguard run --sandbox %s-- %s\n' "$name" "${policy[*]:+${policy[*]} }" "$cmd"
	(cd "$proj" && timeout 300 "$cg" run --sandbox "${policy[@]}" --timeout 240s -- "$cmd") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	sed 's/^/  out: /' "$tmp/out" | tail -n 8
	sed 's/^/  err: /' "$tmp/err" | tail -n 8
	if { [ "$want" = 0 ] && [ $rc = 0 ]; } || { [ "$want" = 1 ] && [ $rc != 0 ]; }; then
		echo "PASS ($name: exit $rc)"
	else
		echo "FAIL ($name: exit $rc)"
		fails=$((fails + 1))
	fi
}
# grep_err PATTERN: the last step's stderr holds PATTERN.
grep_err() {
	if grep -q -- "$1" "$tmp/err"; then echo "PASS (stderr has: $1)"; else echo "FAIL (stderr lacks: $1)"; fails=$((fails + 1)); fi
}

step "npm install" 0 "npm install is-number@7.0.0"
if [ -f "$proj/node_modules/is-number/index.js" ]; then echo "PASS (node_modules/is-number installed)"; else echo "FAIL (no node_modules/is-number)"; fails=$((fails + 1)); fi
step "go mod download" 0 "go mod download -json rsc.io/quote@v1.5.2"
grep -q '"Error"' "$tmp/out" && { echo "FAIL (go mod download reported an error)"; fails=$((fails + 1)); }
# The probes' policy: every command passes the gate; the sandbox keys
# left out (network among them) take the embedded default's values.
printf 'version: 1\ndefault: allow\nrules: {redirect.network: allow}\nsandbox:\n  enabled: true\n' >"$tmp/probes.yaml"
policy=(--policy "$tmp/probes.yaml")
step "curl, listed host" 0 "curl -sS -f -o /dev/null https://registry.npmjs.org/is-number"
step "curl, unlisted host" 1 "curl -sS -f -o /dev/null https://example.org/"
grep_err "network: refused example.org:443, not in sandbox.network"
step "curl, listed host, unlisted port" 1 "curl -sS -f -o /dev/null https://registry.npmjs.org:8443/"
grep_err "network: refused registry.npmjs.org:8443, not in sandbox.network"
# The next three bypass the proxy: they must fail inside the sandbox.
step "direct TCP to an IP address" 1 "exec 3<>/dev/tcp/1.1.1.1/443"
step "UDP packet" 1 "echo x >/dev/udp/8.8.8.8/53"
step "DNS query for an unlisted name" 1 "getent hosts example.org"
# Controls: the same probes without the sandbox (informational; they
# show what the sandbox took away on this machine).
printf '\n== controls, without the sandbox\n'
timeout 10 bash -c 'exec 3<>/dev/tcp/1.1.1.1/443' 2>/dev/null && echo "  direct TCP to 1.1.1.1:443: connects" || echo "  direct TCP to 1.1.1.1:443: fails here too"
timeout 10 getent hosts example.org >/dev/null && echo "  DNS for example.org: answers" || echo "  DNS for example.org: fails here too"
printf '\n%d FAIL(s)\n' "$fails"
exit "$fails"
