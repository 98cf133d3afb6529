// The time cmdguard's opencode/Kilo plugin adds to a tool call: RUNS
// interleaved pairs of (1) `cmdguard hook --agent opencode` spawned
// directly with the call on stdin, timed from spawn to exit, and (2) the
// plugin's tool.execute.before for the same call (which spawns the same
// hook), timed around the call; prints both medians and their difference.
// Run it in the runtime the agents use — Bun, which the opencode binary
// is when BUN_BE_BUN=1:
//
//   BUN_BE_BUN=1 scripts/agents/node_modules/opencode-linux-x64/bin/opencode scripts/agents/plugin-bench.mjs CMDGUARD [RUNS]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const { CmdguardPlugin } = await import(path.join(here, "../../adapter/hook/plugins/opencode/cmdguard.js"));
const bin = path.resolve(process.argv[2] ?? "cmdguard");
const runs = Number(process.argv[3] ?? 31);
const proj = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "cmdguard-bench-")));
fs.writeFileSync(path.join(proj, ".cmdguard.yaml"), "version: 1\ndefault: ask\nallow: [git status]\n");
fs.writeFileSync(path.join(proj, ".cmdguardignore"), ".env\n");
const argv = [bin, "hook", "--agent", "opencode"];
const args = { command: "git status", description: "x" };
const input = JSON.stringify({ hook_event_name: "tool.execute.before", agent: "opencode", tool: "bash", session_id: "s", call_id: "c", directory: proj, worktree: proj, tool_input: args }) + "\n";

function direct() {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const c = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    c.stdout.on("data", (b) => (out += b));
    c.on("error", reject);
    c.on("close", (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0 || !out.includes('"allow"')) reject(new Error(`hook: exit ${code}: ${out}`));
      resolve(ms);
    });
    c.stdin.end(input);
  });
}

const hooks = await CmdguardPlugin({ directory: proj, worktree: proj }, { command: argv });
async function plugin() {
  const t0 = process.hrtime.bigint();
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args: { ...args } });
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const a = [], b = [];
await direct(); await plugin(); // warm up
for (let i = 0; i < runs; i++) { a.push(await direct()); b.push(await plugin()); }
const diffs = a.map((x, i) => b[i] - x);
const rt = typeof Bun !== "undefined" ? `bun ${Bun.version}` : `node ${process.version}`;
console.log(`${rt}, ${runs} interleaved runs, load ${os.loadavg()[0].toFixed(1)}:`);
console.log(`  cmdguard hook process        median ${median(a).toFixed(2)} ms`);
console.log(`  plugin tool.execute.before   median ${median(b).toFixed(2)} ms`);
console.log(`  added by the plugin          median ${(median(b) - median(a)).toFixed(2)} ms (median of the pairwise differences ${median(diffs).toFixed(2)} ms)`);
fs.rmSync(proj, { recursive: true, force: true });
