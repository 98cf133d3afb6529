#!/usr/bin/env bash
# Runs the curl examples of the AIO sandbox's own Bash guide against
# `cmdguard serve`, verbatim, and checks the JSON of every answer.
#
# The examples are copied from agent-infra/sandbox,
# website/docs/en/guide/basic/bash.md. What is replaced when they run:
# the placeholder SESSION_ID (by the session_id an earlier answer gave, as
# the guide says to); the base URL http://localhost:8080 when port 8080 is
# taken on this machine (a free port instead); /home/gem when it does not
# exist and cannot be created (a temp dir instead). The script says so
# when it replaces either. The guide's python3 http.server example is
# refused by the policy used here (interpreters are not allowed): the
# script checks the refusal, then starts a stand-in long-lived command so
# that the guide's "Read logs" and "Stop the process" examples have a
# session to act on.
#
# usage: scripts/serve/aio-curl.sh [CMDGUARD_BINARY]
# needs: bash, curl, jq (and go, when no binary is given)
set -euo pipefail
cd "$(dirname "$0")/../.."

tmp=$(mktemp -d)
server=
made_gem=
cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
	[ -n "$made_gem" ] && rm -rf /home/gem/.cmdguard.yaml /home/gem/sub && rmdir /home/gem 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

bin=${1:-}
if [ -z "$bin" ]; then
	bin=$tmp/cmdguard
	go build -o "$bin" ./cmd/cmdguard
fi

# The guide's first example runs in /home/gem, the AIO sandbox's home and
# workspace: it is the project here (exec_dir must lie inside the project
# root since issue 26), with a policy that allows what the guide runs,
# except the python3 server. A /home/gem that exists already is not ours:
# then the project is a directory of our own, put in its place.
gem=/home/gem
if [ ! -d /home/gem ] && mkdir -p /home/gem 2>/dev/null; then
	made_gem=1
else
	gem=$tmp/gem && mkdir -p "$gem"
	echo "note: /home/gem is not ours to use here; the first example runs in $gem instead"
fi
project=$gem
mkdir -p "$project/sub"
printf 'version: 1\ndefault: deny\nallow: [pwd, ls, echo, cat, sleep]\nignore: [.env]\n' > "$project/.cmdguard.yaml"

start_server() { # ADDR
	"$bin" serve --listen "$1" --cwd "$project" 2> "$tmp/serve.log" &
	server=$!
	for _ in $(seq 100); do
		addr=$(jq -r 'select(.msg == "listening") | .addr' "$tmp/serve.log" 2>/dev/null || true)
		[ -n "$addr" ] && return 0
		kill -0 "$server" 2>/dev/null || { server=; return 1; }
		sleep 0.1
	done
	echo "cmdguard serve did not start:"; cat "$tmp/serve.log"; exit 1
}
base=http://localhost:8080
if ! start_server 127.0.0.1:8080; then
	start_server 127.0.0.1:0
	base=http://localhost:${addr##*:}
	echo "note: port 8080 is taken here; the examples run against $base"
fi

fails=0
session=
# run NAME: runs the example read from stdin, with SESSION_ID and the base
# URL replaced, and leaves its answer in $out.
run() {
	local text
	text=$(cat)
	text=${text//SESSION_ID/$session}
	text=${text//http:\/\/localhost:8080/$base}
	text=${text//\/home\/gem/$gem}
	echo "== $1"
	out=$(bash -c "$text" 2>"$tmp/curl.err") || { echo "curl failed:"; cat "$tmp/curl.err"; }
	echo "$out" | jq -c . 2>/dev/null || echo "$out"
}
# check DESCRIPTION JQ-EXPR: the expression must be true of $out.
check() {
	if ! echo "$out" | jq -e "$2" >/dev/null 2>&1; then
		echo "FAIL: $1: $2"
		fails=$((fails + 1))
	fi
}

# --- Execute Short Commands
run "exec in /home/gem" <<'EXAMPLE'
curl -X POST "http://localhost:8080/v1/bash/exec" \
  -H "Content-Type: application/json" \
  -d '{
    "command": "pwd && ls -la",
    "exec_dir": "/home/gem",
    "timeout": 30,
    "hard_timeout": 120
  }'
EXAMPLE
check "completed" '.success == true and .data.status == "completed" and .data.exit_code == 0'
check "stdout" '(.data.stdout | startswith("'"$gem"'\ntotal ")) and .data.stderr == null'
check "offset is the stdout byte count" '.data.offset == (.data.stdout | utf8bytelength) and .data.stderr_offset == 0'
check "ids" '(.data.session_id | length) > 0 and (.data.command_id | length) > 0 and .data.command == "pwd && ls -la"'

# --- Long Commands And Incremental Output
run "soft timeout" <<'EXAMPLE'
# 1. Start a command. If it is not done within 1 second, it returns running.
curl -X POST "http://localhost:8080/v1/bash/exec" \
  -H "Content-Type: application/json" \
  -d '{
    "command": "sleep 3; echo done",
    "timeout": 1,
    "hard_timeout": 30
  }'
EXAMPLE
check "running" '.success == true and .data.status == "running" and .data.exit_code == null and .data.offset == 0'
session=$(echo "$out" | jq -r .data.session_id)

run "waiting output" <<'EXAMPLE'
# 2. Continue reading with the returned session_id, offset, and stderr_offset.
curl -X POST "http://localhost:8080/v1/bash/output" \
  -H "Content-Type: application/json" \
  -d '{
    "session_id": "SESSION_ID",
    "offset": 0,
    "stderr_offset": 0,
    "wait": true,
    "wait_timeout": 10
  }'
EXAMPLE
check "completed with the output in the same answer" '.success == true and .data.command.status == "completed" and .data.command.exit_code == 0 and .data.stdout == "done\n" and .data.offset == 5'

# --- Long-Lived Processes
run "python3 http.server (refused by this policy)" <<'EXAMPLE'
curl -X POST "http://localhost:8080/v1/bash/exec" \
  -H "Content-Type: application/json" \
  -d '{
    "command": "python3 -m http.server 3000 --directory /tmp",
    "async_mode": true,
    "hard_timeout": 3600
  }'
EXAMPLE
check "refused, never started" '.success == false and .data.status == "refused" and .data.decision == "deny" and .data.exit_code == null'
check "every reason" '[.data.reasons[].rule] | index("policy.no_match") != null'
check "readable message and caret" '(.message | startswith("refused by cmdguard: deny: 1:1 policy.no_match")) and (.hint | contains("\n    ^"))'

echo "== stand-in long-lived command (not from the guide): echo serving; sleep 3600"
out=$(curl -s -X POST "$base/v1/bash/exec" -H "Content-Type: application/json" \
	-d '{"command": "echo serving; sleep 3600", "async_mode": true, "hard_timeout": 3600}')
check "async running" '.success == true and .data.status == "running"'
session=$(echo "$out" | jq -r .data.session_id)

run "read logs" <<'EXAMPLE'
curl -X POST "http://localhost:8080/v1/bash/output" \
  -H "Content-Type: application/json" \
  -d '{
    "session_id": "SESSION_ID",
    "offset": 0,
    "stderr_offset": 0,
    "wait": true,
    "wait_timeout": 5
  }'
EXAMPLE
check "logs" '.success == true and .data.stdout == "serving\n" and .data.command.status == "running" and .data.offset == 8'

run "stop the process" <<'EXAMPLE'
curl -X POST "http://localhost:8080/v1/bash/kill" \
  -H "Content-Type: application/json" \
  -d '{
    "session_id": "SESSION_ID",
    "signal": "SIGTERM"
  }'
EXAMPLE
check "killed" '.success == true and .data.status == "killed" and .data.signal == "SIGTERM"'

# --- Write To stdin
run "cat waiting for stdin" <<'EXAMPLE'
# Start a process that waits for stdin.
curl -X POST "http://localhost:8080/v1/bash/exec" \
  -H "Content-Type: application/json" \
  -d '{
    "command": "cat",
    "async_mode": true,
    "hard_timeout": 120
  }'
EXAMPLE
check "running" '.success == true and .data.status == "running"'
session=$(echo "$out" | jq -r .data.session_id)

run "write one line" <<'EXAMPLE'
# Write one line of input.
curl -X POST "http://localhost:8080/v1/bash/write" \
  -H "Content-Type: application/json" \
  -d '{
    "session_id": "SESSION_ID",
    "input": "hello from stdin\n"
  }'
EXAMPLE
check "written" '.success == true and .data.written == 17'

run "read the echo" <<'EXAMPLE'
# Read the echoed output.
curl -X POST "http://localhost:8080/v1/bash/output" \
  -H "Content-Type: application/json" \
  -d '{
    "session_id": "SESSION_ID",
    "offset": 0,
    "wait": true,
    "wait_timeout": 5
  }'
EXAMPLE
check "echoed" '.success == true and .data.stdout == "hello from stdin\n" and .data.command.status == "running"'
curl -s -X POST "$base/v1/bash/kill" -d "{\"session_id\": \"$session\"}" >/dev/null

# --- Session State
# The guide's exec_dir /tmp lies outside the project: refused (issue 26),
# a 422 as for any bad exec_dir. Its session-state example runs in a
# directory of the project instead.
run "exec_dir outside the project is refused" <<'EXAMPLE'
curl -X POST "http://localhost:8080/v1/bash/exec" \
  -H "Content-Type: application/json" \
  -d '{
    "command": "pwd",
    "exec_dir": "/tmp"
  }'
EXAMPLE
check "refused" '.detail[0].loc == ["body", "exec_dir"] and (.detail[0].msg | contains("outside the project root"))'
run "exec_dir sets the session's directory" <<'EXAMPLE'
curl -X POST "http://localhost:8080/v1/bash/exec" \
  -H "Content-Type: application/json" \
  -d '{
    "command": "pwd",
    "exec_dir": "/home/gem/sub"
  }'
EXAMPLE
check "pwd" '.success == true and .data.stdout == "'"$gem"'/sub\n"'
session=$(echo "$out" | jq -r .data.session_id)

run "the same session" <<'EXAMPLE'
curl -X POST "http://localhost:8080/v1/bash/exec" \
  -H "Content-Type: application/json" \
  -d '{
    "session_id": "SESSION_ID",
    "command": "pwd && echo ${MY_VAR:-unset}"
  }'
EXAMPLE
check "directory kept, no variable" '.success == true and .data.stdout == "'"$gem"'/sub\nunset\n" and .data.session_id == "'"$session"'"'

# The server ends on SIGTERM with exit 0.
kill -TERM "$server"
if ! wait "$server"; then
	echo "FAIL: cmdguard serve did not exit 0 on SIGTERM"; fails=$((fails + 1))
fi
server=
if [ "$(jq -s '[.[] | select(.msg == "request")] | length' "$tmp/serve.log")" -lt 12 ]; then
	echo "FAIL: the access log lacks request records"; fails=$((fails + 1))
fi
if ((fails)); then
	echo "aio-curl: $fails check(s) failed"; exit 1
fi
echo "aio-curl: every example answered as expected"
