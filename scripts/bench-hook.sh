#!/usr/bin/env bash
# The hook as an agent runs it: one `cmdguard hook --agent claude` process
# per tool call, in a repo of N files (default 100,000 in 1,000
# directories, a .cmdguardignore at the top and one in every 100th
# directory). Prints the median and the 90th percentile of RUNS runs for
# an allowed and a denied command, next to a tiny repo and `bash -c true`.
#   scripts/bench-hook.sh [FILES] [RUNS]
# CMDGUARD_COMPARE=/path/to/another/cmdguard also times that binary's
# `check -- 'git status'` in the same repo (e.g. a build of another branch).
set -euo pipefail
files=${1:-100000}
runs=${2:-41}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/cmdguard-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
(cd "$repo" && go build -o "$work/cmdguard" ./cmd/cmdguard)

mk() { # DIR FILES
	python3 - "$1" "$2" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
dirs = max(1, n // 100)
for d in range(dirs):
    p = os.path.join(root, "src", f"pkg{d // 100}", f"mod{d}")
    os.makedirs(p, exist_ok=True)
    for f in range(min(100, n - d * 100)):
        with open(os.path.join(p, f"file{f}.go"), "w") as fh:
            fh.write("package x\n")
    if d % 100 == 0:
        with open(os.path.join(p, ".cmdguardignore"), "w") as fh:
            fh.write("*.secret\n")
with open(os.path.join(root, ".cmdguardignore"), "w") as fh:
    fh.write(".env\n*.pem\n")
with open(os.path.join(root, ".env"), "w") as fh:
    fh.write("TOKEN=x\n")
with open(os.path.join(root, ".cmdguard.yaml"), "w") as fh:
    fh.write("version: 1\ndefault: ask\nallow: [git status, ls, cat]\n")
PY
	git -C "$1" init -q
}
mkdir -p "$work/big" "$work/small"
mk "$work/big" "$files"
mk "$work/small" 10
echo "repo: $(find "$work/big" -type f | wc -l) files, $(find "$work/big" -type d | wc -l) directories"

input() { # DIR CMD
	python3 -c 'import json,sys; print(json.dumps({"session_id":"s","transcript_path":"/tmp/t","cwd":sys.argv[1],"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[2]},"tool_use_id":"t"}))' "$1" "$2"
}
input "$work/big" "git status" > "$work/big-allow.json"
input "$work/big/src/pkg0/mod0" "cat ../../../.env" > "$work/big-deny.json"
input "$work/small" "git status" > "$work/small-allow.json"

python3 - "$work" "$runs" "${CMDGUARD_COMPARE:-}" <<'PY'
import subprocess, sys, time, statistics
work, runs, other = sys.argv[1], int(sys.argv[2]), sys.argv[3]
cg = work + "/cmdguard"
def bench(name, argv, stdin=None):
    ts = []
    for i in range(runs + 1):
        data = open(stdin, "rb").read() if stdin else None
        t = time.perf_counter()
        r = subprocess.run(argv, input=data, capture_output=True, cwd=work + "/big")
        ts.append((time.perf_counter() - t) * 1000)
        if i == 0:
            out = r.stdout.decode().strip()[:110]
    ts = sorted(ts[1:])  # the first run warms the page cache
    print(f"{name:44s} median {statistics.median(ts):6.1f} ms   p90 {ts[int(len(ts)*0.9)]:6.1f} ms   {out}")
bench("bash -c true", ["bash", "-c", "true"])
bench("hook, 10-file repo, git status", [cg, "hook", "--agent", "claude"], work + "/small-allow.json")
bench("hook, big repo, git status", [cg, "hook", "--agent", "claude"], work + "/big-allow.json")
bench("hook, big repo, cat ../../../.env (deny)", [cg, "hook", "--agent", "claude"], work + "/big-deny.json")
bench("check, big repo, git status", [cg, "check", "--", "git status"])
if other:
    bench("check, big repo, git status: " + other, [other, "check", "--", "git status"])
PY
