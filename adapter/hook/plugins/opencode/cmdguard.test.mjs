// Tests of cmdguard's plugin for opencode and the Kilo CLI, with node's own
// runner: node --test adapter/hook/plugins/opencode/
//
// The plugin is driven as opencode drives it (tool.execute.before with the
// call's args object), first against a fake hook that answers what it is
// told to and records what it got, then against the real cmdguard (built
// here with go build) in a project with an ignored .env.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { CmdguardPlugin } from "./cmdguard.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cmdguard-plugin-"));
process.on("exit", () => fs.rmSync(tmp, { recursive: true, force: true }));

// The fake hook: argv[2] is what to do; it writes its stdin to argv[3].
const fake = path.join(tmp, "fake-hook.mjs");
fs.writeFileSync(fake, `
import fs from "node:fs";
const [mode, record] = process.argv.slice(2);
let input = "";
process.stdin.on("data", (b) => (input += b));
process.stdin.on("end", () => {
  fs.writeFileSync(record, input);
  const answers = {
    allow: ['{"decision":"allow"}', 0],
    rewrite: ['{"decision":"allow","args":{"command":"cmdguard run --sandbox -- \\'go test\\'","workdir":"/p"}}', 0],
    deny: ['{"decision":"deny","reason":"cmdguard: deny: 1:5 ignore.denied: .env"}', 0],
    deny2: ['{"decision":"deny","reason":"cmdguard: deny: the policy did not load"}', 2],
    allowExit1: ['{"decision":"allow"}', 1],
    garbage: ['allow', 0],
    empty: ['', 0],
    array: ['["allow"]', 0],
    argsString: ['{"decision":"allow","args":"rm -rf /"}', 0],
    ask: ['{"decision":"ask","reason":"cmdguard: ask: needs approval"}', 0],
  };
  if (mode === "hang") return setTimeout(() => {}, 60000);
  const [out, code] = answers[mode];
  process.stdout.write(out);
  process.exitCode = code;
});
`);

let n = 0;
async function plugin(mode, opts = {}) {
  const record = path.join(tmp, `rec-${++n}.json`);
  const hooks = await CmdguardPlugin(
    { directory: "/proj", worktree: "/proj" },
    { command: [process.execPath, fake, mode, record], ...opts },
  );
  return { before: hooks["tool.execute.before"], record };
}

const call = (tool) => ({ tool, sessionID: "ses_1", callID: "call_1" });

test("allow: the tool runs with its args untouched; the hook got the call", async () => {
  const { before, record } = await plugin("allow");
  const args = { command: "git status", workdir: "/proj/sub", description: "x" };
  await before(call("bash"), { args });
  assert.deepEqual(args, { command: "git status", workdir: "/proj/sub", description: "x" });
  const got = JSON.parse(fs.readFileSync(record, "utf8"));
  assert.deepEqual(got, {
    hook_event_name: "tool.execute.before", agent: "opencode", tool: "bash", session_id: "ses_1", call_id: "call_1",
    directory: "/proj", worktree: "/proj", tool_input: { command: "git status", workdir: "/proj/sub", description: "x" },
  });
});

test("the agent named by --agent is sent", async () => {
  const record = path.join(tmp, "rec-kilo.json");
  const hooks = await CmdguardPlugin({ directory: "/proj" }, { command: [process.execPath, fake, "allow", record, "--agent", "kilo"] });
  await hooks["tool.execute.before"](call("read"), { args: { filePath: "a" } });
  assert.equal(JSON.parse(fs.readFileSync(record, "utf8")).agent, "kilo");
});

test("allow with args: the args object itself is rewritten", async () => {
  const { before } = await plugin("rewrite");
  const args = { command: "go test", description: "x" };
  await before(call("bash"), { args });
  assert.deepEqual(args, { command: "cmdguard run --sandbox -- 'go test'", workdir: "/p", description: "x" });
});

for (const [mode, why] of [
  ["deny", /^Error: cmdguard: deny: 1:5 ignore\.denied: \.env$/],
  ["deny2", /the policy did not load/],
  ["ask", /needs approval/],
  ["allowExit1", /answered "allow" with exit 1 .*fails closed/],
  ["garbage", /not JSON .*fails closed/],
  ["empty", /not JSON .*fails closed/],
  ["array", /not a JSON object/],
  ["argsString", /args are not an object/],
]) {
  test(`${mode}: the tool is refused, the model told why`, async () => {
    const { before } = await plugin(mode);
    const args = { command: "cat .env" };
    await assert.rejects(before(call("bash"), { args }), why);
    assert.deepEqual(args, { command: "cat .env" });
  });
}

test("a hook that does not answer in time is killed: refused", async () => {
  const { before } = await plugin("hang", { timeout: 300 });
  const t0 = Date.now();
  await assert.rejects(before(call("bash"), { args: { command: "ls" } }), /no answer in 0\.3s.*fails closed/);
  assert.ok(Date.now() - t0 < 5000);
});

test("a hook that cannot start: refused", async () => {
  const hooks = await CmdguardPlugin({ directory: "/proj" }, { command: [path.join(tmp, "no-such-cmdguard"), "hook"] });
  await assert.rejects(hooks["tool.execute.before"](call("bash"), { args: { command: "ls" } }), /did not run.*ENOENT.*fails closed/);
});

test("no command option: every judged call is refused", async () => {
  for (const options of [undefined, {}, { command: "cmdguard hook" }, { command: [] }, { command: [1] }]) {
    const hooks = await CmdguardPlugin({ directory: "/proj" }, options);
    await assert.rejects(hooks["tool.execute.before"](call("bash"), { args: { command: "ls" } }), /no command option/);
  }
});

test("tools cmdguard does not judge run without a hook process", async () => {
  const { before, record } = await plugin("deny");
  for (const tool of ["todowrite", "task", "webfetch", "question", "skill"]) await before(call(tool), { args: {} });
  assert.equal(fs.existsSync(record), false);
  for (const tool of ["bash", "read", "write", "edit", "grep", "glob", "list", "apply_patch", "notebook_execute"]) {
    await assert.rejects(before(call(tool), { args: {} }), /ignore\.denied/, tool);
  }
});

test("only the plugin is exported (opencode calls every exported function)", async () => {
  const m = await import("./cmdguard.js");
  assert.deepEqual(Object.keys(m), ["CmdguardPlugin"]);
});

// The real cmdguard.
const bin = path.join(tmp, "cmdguard");
execFileSync("go", ["build", "-o", bin, "./cmd/cmdguard"], { cwd: path.resolve(here, "../../../.."), stdio: "inherit" });
const proj = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "cmdguard-plugin-proj-")));
process.on("exit", () => fs.rmSync(proj, { recursive: true, force: true }));
fs.writeFileSync(path.join(proj, ".cmdguard.yaml"), "version: 1\ndefault: ask\nallow: [git status, ls, echo]\n");
fs.writeFileSync(path.join(proj, ".cmdguardignore"), ".env\n");
fs.writeFileSync(path.join(proj, ".env"), "TOKEN=sekrit\n");

async function real(...flags) {
  const hooks = await CmdguardPlugin({ directory: proj, worktree: proj }, { command: [bin, "hook", "--agent", "opencode", ...flags] });
  return hooks["tool.execute.before"];
}

test("real cmdguard: git status runs, cat .env and a read of .env are refused with ignore.denied", async () => {
  const before = await real();
  const ok = { command: "git status" };
  await before(call("bash"), { args: ok });
  assert.equal(ok.command, "git status");
  await assert.rejects(before(call("bash"), { args: { command: "cat .env" } }), /ignore\.denied: '\.env' is ignored/);
  await assert.rejects(before(call("read"), { args: { filePath: path.join(proj, ".env") } }), /read of .*\.env: deny: .*ignore\.denied/);
  await assert.rejects(before(call("bash"), { args: { command: "npm install" } }), /policy\.no_match.*needs a person's approval/);
  // The model's workdir does not pick the policy.
  await assert.rejects(before(call("bash"), { args: { command: `cat ${proj}/.env`, workdir: "/" } }), /ignore\.denied/);
});

test("real cmdguard --sandbox: an allowed command is rewritten into cmdguard run --sandbox", async () => {
  const before = await real("--sandbox");
  const args = { command: "git status", description: "x" };
  await before(call("bash"), { args });
  assert.equal(args.command, `${bin} run --sandbox --cwd ${proj} -- 'git status'`);
  assert.equal(args.description, "x");
});
