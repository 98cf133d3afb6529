#!/usr/bin/env bash
# Runs the real Claude Code, Codex, Gemini CLI, opencode and Kilo CLI
# offline, each with cmdguard's hook (opencode, Kilo: cmdguard's plugin) put
# in place by `cmdguard install`, against a fake model
# API on loopback (fake-api.mjs) that asks for one shell command per run:
#
#   (a) git status     — must run; the model sees its output
#   (b) cat .env       — .env is in .cmdguardignore: must not run; the model
#                        is told why (ignore.denied) and never sees the secret
#   (c) touch asked.txt — no rule matches, so cmdguard asks; nobody can
#                        answer in a headless run: must not run; the model is
#                        told it needs a person's approval
#   (d) the agent's own file tool reads secret.txt, also ignored (Claude Code's Read, Gemini's
#       read_file, opencode's and Kilo's read; Codex has no file-tool hook) — denied, told why
#   (e) Codex, opencode, Kilo: the model runs `cat /abs/proj/.env` with
#       workdir set to a directory holding a lax .cmdguard.yaml — the
#       project's policy still decides (the model cannot pick the policy by
#       moving)
#   (f) Claude Code only: one session, `cd secrets` then `cat db.txt` —
#       the shell's cwd persists between calls, and so must the check's
#   (g) Claude Code only, hook installed with --sandbox: `sh show.sh`
#       (allowed; the script cats .env, which the gate cannot see) is
#       rewritten into `cmdguard run --sandbox`: it runs, and the model
#       sees its output without the secret
#   (s) hook installed with --sandbox, the embedded default policy (no
#       .cmdguard.yaml): `go test -count=1 -v ./...` in a module whose
#       test prints .env. The default allows go test only under the
#       sandbox; the hook rewrites it into `cmdguard run --sandbox` (Claude
#       Code's and Codex's updatedInput, Gemini CLI's tool_input): it runs,
#       and the model sees its output with .env empty (first checked: the
#       same test run directly prints the secret)
#   (t) the control of (s): the hook installed without --sandbox — go test
#       asks, which no one can answer headless: it does not run, and the
#       model is told why (policy.needs_sandbox)
#   (u) Codex only, hook installed with --sandbox: the model runs go test
#       with workdir set to a directory outside the project whose test
#       reads the project's .env — not rewritten (cmdguard run --cwd there
#       would take that directory's project and sandbox, hiding nothing of
#       this one): asked, so denied, and it does not run
#   (z) a control: `cmdguard install --uninstall`, then cat .env — runs and
#       the model sees the secret, so the checks above can fail
#
# Usage: scripts/agents/run.sh [claude] [codex] [gemini] [opencode] [kilo]   (default: all five)
# The agents come from `npm ci` in scripts/agents (see package.json). What
# each model saw is kept in $CMDGUARD_AGENT_OUT (default: a temp dir) as
# AGENT-CASE.json, and summed up on stdout. Exit 0 only if every check held.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=$here/node_modules/.bin
out=${CMDGUARD_AGENT_OUT:-$(mktemp -d /tmp/cmdguard-agents-out.XXXXXX)}
mkdir -p "$out"
work=$(mktemp -d /tmp/cmdguard-agents.XXXXXX)
api_pid=
cleanup() {
	if [ -n "$api_pid" ]; then kill "$api_pid" 2>/dev/null || true; wait "$api_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

agents=("$@")
[ ${#agents[@]} -gt 0 ] || agents=(claude codex gemini opencode kilo)

(cd "$repo" && go build -o "$work/cmdguard" ./cmd/cmdguard)
# Cases (s) and (t) run go test with HOME set to a fresh directory: keep
# Go's caches where they are, so that the test builds in seconds.
export GOCACHE=${GOCACHE:-$(go env GOCACHE)} GOMODCACHE=${GOMODCACHE:-$(go env GOMODCACHE)} GOTOOLCHAIN=local GOFLAGS=-mod=mod
cg=$work/cmdguard

mkdir -p "$work/api"
node "$here/fake-api.mjs" "$work/api" &
api_pid=$!
for _ in $(seq 100); do [ -s "$work/api/port" ] && break; sleep 0.1; done
port=$(cat "$work/api/port")
echo "fake model API on 127.0.0.1:$port; records in $out"

fails=0
check() { # name condition-description result
	if [ "$3" = ok ]; then echo "  ok    $1: $2"; else echo "  FAIL  $1: $2"; fails=$((fails + 1)); fi
}

# project AGENT: a fresh project (git repo, policy, ignored .env) and home.
project() {
	local p=$work/$1/proj h=$work/$1/home
	rm -rf "$work/$1"; mkdir -p "$p" "$h"
	(cd "$p" && git init -q && git config user.email t@example.com && git config user.name t)
	printf 'version: 1\ndefault: ask\nallow: [git status, ls, echo, cd]\n' > "$p/.cmdguard.yaml"
	printf '.env\nsecret.txt\nsecrets/db.txt\n' > "$p/.cmdguardignore"
	mkdir -p "$p/secrets"; printf 'sekrit-4711\n' > "$p/secrets/db.txt"
	printf 'TOKEN=sekrit-4711\n' > "$p/.env"
	printf 'sekrit-4711\n' > "$p/secret.txt"
	# Codex runs commands in a login shell (bash -lc), whose /etc/profile
	# resets PATH: keep go on it.
	printf 'PATH=%s:$PATH\n' "$(dirname "$(command -v go)")" > "$h/.profile"
	echo "$p"
}

# run_agent AGENT PROJECT HOME: one headless run of the agent in PROJECT.
run_agent() {
	local agent=$1 p=$2 h=$3
	case $agent in
	claude)
		(cd "$p" && HOME=$h ANTHROPIC_BASE_URL=http://127.0.0.1:$port ANTHROPIC_API_KEY=sk-test \
			CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 \
			timeout 120 "$bin/claude" -p go --output-format json --model claude-sonnet-4-5) ;;
	codex)
		(cd "$p" && HOME=$h CODEX_HOME=$h/.codex MOCK_KEY=x \
			timeout 120 "$bin/codex" exec --skip-git-repo-check --dangerously-bypass-hook-trust go) ;;
	gemini)
		(cd "$p" && HOME=$h GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:$port GEMINI_API_KEY=test \
			GEMINI_CLI_TRUST_WORKSPACE=true timeout 120 "$bin/gemini" -p go -m gemini-2.5-pro --yolo) ;;
	opencode | kilo)
		# Their Anthropic provider, pointed at the fake API (setup).
		(cd "$p" && HOME=$h OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_AUTOUPDATE=1 KILO_DISABLE_MODELS_FETCH=1 \
			KILO_DISABLE_AUTOUPDATE=1 timeout 300 "$bin/$agent" run go </dev/null) ;;
	esac
}

# setup AGENT PROJECT HOME: the agent's own configuration, then cmdguard install
# --no-sandbox (the plain hook: cases a-d, t and z judge the gate alone; s, g
# and u install the default sandboxed rewrite themselves).
setup() {
	local agent=$1 p=$2 h=$3
	case $agent in
	claude)
		"$cg" install claude --dir "$p" --bin "$cg" --no-sandbox ;;
	codex)
		mkdir -p "$h/.codex"
		cat > "$h/.codex/config.toml" <<-EOF
		model = "gpt-5.1-codex"
		model_provider = "mock"
		approval_policy = "never"
		sandbox_mode = "danger-full-access"
		[model_providers.mock]
		name = "mock"
		base_url = "http://127.0.0.1:$port/v1"
		wire_api = "responses"
		env_key = "MOCK_KEY"
		[projects."$p"]
		trust_level = "trusted"
		EOF
		"$cg" install codex --dir "$p" --bin "$cg" --no-sandbox ;;
	gemini)
		mkdir -p "$h/.gemini"
		printf '{"security":{"auth":{"selectedType":"gemini-api-key"}}}\n' > "$h/.gemini/settings.json"
		# Headless: an ask would make Gemini CLI wait forever.
		"$cg" install gemini --dir "$p" --bin "$cg" --ask-as-deny --no-sandbox ;;
	opencode | kilo)
		mkdir -p "$h/.config/$agent"
		printf '{"provider":{"anthropic":{"options":{"baseURL":"http://127.0.0.1:%s/v1","apiKey":"sk-test"}}},"model":"anthropic/claude-sonnet-4-5","autoupdate":false,"share":"disabled"}\n' "$port" > "$h/.config/$agent/$agent.json"
		"$cg" install "$agent" --dir "$p" --bin "$cg" --no-sandbox ;;
	esac
}

for agent in "${agents[@]}"; do
	if [ ! -x "$bin/$agent" ]; then
		echo "== $agent: not installed (npm ci in scripts/agents)"; fails=$((fails + 1)); continue
	fi
	echo "== $agent $("$bin/$agent" --version 2>/dev/null | head -1)"
	case $agent in
	claude) cases="a b c d f g s t z" ;;
	codex) cases="a b c e s t u z" ;;
	opencode | kilo) cases="a b c d e s t z" ;;
	*) cases="a b c d s t z" ;;
	esac
	for case in $cases; do
		p=$(project "$agent")
		h=$work/$agent/home
		setup "$agent" "$p" "$h" > "$out/$agent-install.txt"
		case $case in
		a) cmd='git status' ;;
		b) cmd='cat .env' ;;
		c) cmd='touch asked.txt' ;;
		d) cmd='{"tool":"Read","input":{"file_path":"'$p'/secret.txt"}}'
			# Gemini's read_file refuses dot files itself, before any hook.
			[ "$agent" = gemini ] && cmd='{"tool":"read_file","input":{"file_path":"secret.txt"}}'
			case $agent in opencode | kilo) cmd='{"tool":"read","input":{"filePath":"'$p'/secret.txt"}}' ;; esac ;;
		e) mkdir -p "$work/lax"
			printf 'version: 1\ndefault: allow\nrules: {path.outside_root: allow}\n' > "$work/lax/.cmdguard.yaml"
			cmd='{"tool":"exec_command","input":{"cmd":"cat '$p'/.env","workdir":"'$work/lax'"}}'
			case $agent in opencode | kilo) cmd='{"tool":"bash","input":{"command":"cat '$p'/.env","workdir":"'$work/lax'","description":"x"}}' ;; esac ;;
		f) cmd='[{"tool":"Bash","input":{"command":"cd secrets"}},{"tool":"Bash","input":{"command":"cat db.txt"}}]' ;;
		g) printf 'version: 1\ndefault: ask\nallow: [git status, ls, echo, cd, sh show.sh]\n' > "$p/.cmdguard.yaml"
			printf 'echo ran-show; cat .env\n' > "$p/show.sh"
			"$cg" install claude --dir "$p" --bin "$cg" --sandbox >> "$out/$agent-install.txt"
			cmd='sh show.sh' ;;
		s | t) rm "$p/.cmdguard.yaml" # the embedded default policy
			printf 'module x\n\ngo 1.22\n' > "$p/go.mod"
			printf 'package x\n\nimport (\n\t"fmt"\n\t"os"\n\t"testing"\n)\n\nfunc TestShow(t *testing.T) {\n\tb, err := os.ReadFile(".env")\n\tfmt.Printf("ran-show read[%%s] %%v\\n", b, err)\n}\n' > "$p/x_test.go"
			if [ "$case" = s ]; then
				direct=$(cd "$p" && go test -count=1 -v ./... 2>&1)
				grep -q 'read\[TOKEN=sekrit-4711' <<<"$direct" && r=ok || r=fail
				check "$agent ($case) precondition" "the test run directly reads .env (so hiding it proves the sandbox)" $r
				flags=(--sandbox)
				[ "$agent" = gemini ] && flags+=(--ask-as-deny)
				"$cg" install "$agent" --dir "$p" --bin "$cg" "${flags[@]}" >> "$out/$agent-install.txt"
			fi
			cmd='go test -count=1 -v ./...' ;;
		u) rm "$p/.cmdguard.yaml"
			rm -rf "$work/elsewhere"; mkdir -p "$work/elsewhere"
			printf 'module x\n\ngo 1.22\n' > "$work/elsewhere/go.mod"
			printf 'package x\n\nimport (\n\t"fmt"\n\t"os"\n\t"testing"\n)\n\nfunc TestShow(t *testing.T) {\n\tb, err := os.ReadFile("%s/.env")\n\tfmt.Printf("ran-show read[%%s] %%v\\n", b, err)\n}\n' "$p" > "$work/elsewhere/x_test.go"
			"$cg" install "$agent" --dir "$p" --bin "$cg" --sandbox >> "$out/$agent-install.txt"
			cmd='{"tool":"exec_command","input":{"cmd":"go test -count=1 -v ./...","workdir":"'$work/elsewhere'"}}' ;;
		z) cmd='cat .env'
			"$cg" install "$agent" --dir "$p" --uninstall >> "$out/$agent-install.txt"
			case $agent in opencode | kilo)
				if [ -e "$p/.$agent/cmdguard.js" ] || [ -e "$p/$agent.json" ]; then
					check "$agent (z) uninstall" "install --uninstall removed the plugin and its config entry" fail
				fi ;;
			esac ;;
		esac
		printf '%s' "$cmd" > "$work/api/next_cmd"
		rm -f "$work/api/seen.json"
		set +e
		run_agent "$agent" "$p" "$h" > "$out/$agent-$case.stdout" 2> "$out/$agent-$case.stderr"
		rc=$?
		set -e
		seen=$(cat "$work/api/seen.json" 2>/dev/null || echo '')
		printf '%s\n' "$seen" > "$out/$agent-$case.json"
		name="$agent ($case) \`$cmd\`"
		if [ -z "$seen" ]; then
			check "$name" "the model got a tool result (agent exit $rc; see $out/$agent-$case.stderr)" fail
			continue
		fi
		case $case in
		a)
			grep -q 'On branch\|No commits yet' <<<"$seen" && r=ok || r=fail
			check "$name" "ran; the model saw its output" $r ;;
		b)
			grep -q 'ignore.denied' <<<"$seen" && ! grep -q 'sekrit-4711' <<<"$seen" && r=ok || r=fail
			check "$name" "did not run; the model was told why (ignore.denied)" $r ;;
		c)
			[ ! -e "$p/asked.txt" ] && grep -q 'policy.no_match' <<<"$seen" && r=ok || r=fail
			check "$name" "did not run; the model was told it needs approval (policy.no_match)" $r ;;
		d)
			grep -q 'ignore.denied' <<<"$seen" && ! grep -q 'sekrit-4711' <<<"$seen" && r=ok || r=fail
			check "$name" "the file tool did not read it; the model was told why (ignore.denied)" $r ;;
		e)
			grep -q 'ignore.denied' <<<"$seen" && ! grep -q 'sekrit-4711' <<<"$seen" && r=ok || r=fail
			check "$name" "did not run; the project's policy decided, not the workdir's" $r ;;
		f)
			grep -q 'ignore.denied' <<<"$seen" && ! grep -q 'sekrit-4711' <<<"$seen" && r=ok || r=fail
			check "$name" "after the cd, cat db.txt did not run; the model was told why" $r ;;
		g)
			grep -q 'ran-show' <<<"$seen" && ! grep -q 'sekrit-4711' <<<"$seen" && r=ok || r=fail
			check "$name" "rewritten into cmdguard run --sandbox: it ran, and .env was hidden from it" $r ;;
		s)
			# Each agent's own trace of the rewrite: Codex prints the command
			# it ran; Gemini CLI tells the model the input was modified.
			case $agent in
			codex) grep -q "bash -lc .*cmdguard run --sandbox --cwd $p -- 'go test" "$out/$agent-$case.stderr" && r=ok || r=fail ;;
			# opencode and Kilo print the command as the model wrote it (and
			# the model sees only the output): the empty .env is the trace.
			gemini) grep -q 'modified by a hook' <<<"$seen" && r=ok || r=fail ;;
			*) r=ok ;;
			esac
			grep -q 'ran-show read\[\]' <<<"$seen" && ! grep -q 'sekrit-4711' <<<"$seen" || r=fail
			check "$name" "rewritten into cmdguard run --sandbox: the test ran, and .env was empty to it" $r ;;
		t)
			! grep -q 'ran-show' <<<"$seen" && grep -q 'policy.needs_sandbox' <<<"$seen" && r=ok || r=fail
			check "$name" "control, no --sandbox: go test asked, did not run; the model was told why (policy.needs_sandbox)" $r ;;
		u)
			! grep -q 'ran-show' <<<"$seen" && grep -q 'is outside the project' <<<"$seen" && r=ok || r=fail
			check "$name" "outside the project: not rewritten, denied, did not run; the model was told why" $r ;;
		z)
			grep -q 'sekrit-4711' <<<"$seen" && ! grep -q cmdguard "$p/.$agent/"* 2>/dev/null && r=ok || r=fail
			check "$name" "control, hook uninstalled: it ran and the model saw the secret" $r ;;
		esac
		echo "        model saw: $(tr -s ' \n' ' ' <<<"$seen" | cut -c1-400)"
	done
done
echo
if [ $fails -gt 0 ]; then echo "$fails check(s) failed; records in $out"; exit 1; fi
echo "all checks passed; records in $out"
