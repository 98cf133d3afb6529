#!/usr/bin/env node
// A scripted fake editor that drives a real ACP agent through `cmdguard acp`,
// with a fake Anthropic Messages API on loopback as the agent's model.
//
//   node editor.mjs CMDGUARD AGENT [ARGS...]
//
// It makes a project with a policy, an ignore file and a secret, launches
// `CMDGUARD acp --cwd PROJECT -- AGENT ARGS...` as an editor launches an
// agent server (Zed's agent_servers), and plays one prompt per scenario: the
// fake model answers each prompt with one tool call (a shell command through
// the agent's terminal tool, or a file read), and the checks look at what the
// model got back, what the editor was shown and asked, and the project's files.
// The editor advertises terminal: false — the agent uses client terminals
// only because cmdguard tells it the client has them.
//
// AGENT is either claude-code-acp (@zed-industries/claude-code-acp, a
// published agent: its Bash tool runs commands with ACP client terminals) or
// agent.mjs beside this file (an agent on @agentclientprotocol/sdk that
// reads the same fake model). It ends with "N passed, M failed" and exits 1
// on any failure.
import http from "node:http";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";

const [cmdguard, ...agentArgv] = process.argv.slice(2).map((a) => (a.endsWith(".mjs") || a.endsWith(".js") ? path.resolve(a) : a));
if (!cmdguard || agentArgv.length === 0) {
  console.error("usage: node editor.mjs CMDGUARD AGENT [ARGS...]");
  process.exit(2);
}

// --- the project -----------------------------------------------------------
const project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "cmdguard-acp-")));
const home = fs.mkdtempSync(path.join(os.tmpdir(), "cmdguard-acp-home-"));
const secret = "hunter2-" + Math.random().toString(36).slice(2);
fs.writeFileSync(path.join(project, ".cmdguard.yaml"), "version: 1\ndefault: deny\nallow: [echo, ls, sleep]\nask: [touch]\n");
fs.writeFileSync(path.join(project, ".cmdguardignore"), ".env\n");
fs.writeFileSync(path.join(project, ".env"), `SECRET=${secret}\n`);
fs.writeFileSync(path.join(project, "a.txt"), "just a file\n");
process.on("exit", () => {
  // also when a step throws: no project, home or agent left behind
  try {
    child?.kill("SIGKILL");
  } catch {}
  fs.rmSync(project, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
});

// --- the fake model (Anthropic Messages API, streaming) ---------------------
let plan = null; // the tool call the model makes in this turn: {tool, input}
const seen = []; // tool results the model got back, as text
let calls = 0;
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    if (req.url.startsWith("/v1/messages/count_tokens")) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end('{"input_tokens":10}');
    }
    const j = JSON.parse(body || "{}");
    const last = (j.messages || []).at(-1) || {};
    const results = Array.isArray(last.content) ? last.content.filter((b) => b.type === "tool_result") : [];
    for (const r of results) {
      seen.push(typeof r.content === "string" ? r.content : JSON.stringify(r.content));
    }
    const tools = (j.tools || []).map((t) => t.name);
    const useTool = plan && !plan.used && results.length === 0 && tools.includes(plan.tool);
    if (useTool) plan.used = true;
    const id = "msg_" + ++calls;
    const usage = { input_tokens: 10, output_tokens: 5 };
    const block = useTool ? { type: "tool_use", id: "toolu_" + calls, name: plan.tool, input: {} } : { type: "text", text: "" };
    const delta = useTool
      ? { type: "input_json_delta", partial_json: JSON.stringify(plan.input) }
      : { type: "text_delta", text: "done" };
    const events = [
      ["message_start", { type: "message_start", message: { id, type: "message", role: "assistant", model: j.model || "fake", content: [], stop_reason: null, usage } }],
      ["content_block_start", { type: "content_block_start", index: 0, content_block: block }],
      ["content_block_delta", { type: "content_block_delta", index: 0, delta }],
      ["content_block_stop", { type: "content_block_stop", index: 0 }],
      ["message_delta", { type: "message_delta", delta: { stop_reason: useTool ? "tool_use" : "end_turn" }, usage: { output_tokens: 5 } }],
      ["message_stop", { type: "message_stop" }],
    ];
    res.writeHead(200, { "content-type": "text/event-stream" });
    for (const [e, d] of events) res.write(`event: ${e}\ndata: ${JSON.stringify(d)}\n\n`);
    res.end();
  });
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const modelURL = `http://127.0.0.1:${server.address().port}`;

// --- the editor: JSON-RPC over the agent server's stdio ---------------------
var child = spawn(cmdguard, ["acp", "--cwd", project, "--", ...agentArgv], {
  cwd: project,
  stdio: ["pipe", "pipe", "pipe"],
  env: {
    ...process.env,
    HOME: home,
    ANTHROPIC_BASE_URL: modelURL,
    ANTHROPIC_API_KEY: "sk-ant-fake",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    IS_SANDBOX: "1", // Claude Code refuses to start as root (CI) otherwise
    FAKE_MODEL_URL: modelURL,
  },
});
let stderr = "";
child.stderr.on("data", (d) => {
  stderr += d;
  if (process.env.VERBOSE) process.stderr.write(d);
});
const exited = new Promise((r) => child.on("exit", (code, signal) => r({ code, signal })));
exited.then((e) => {
  for (const [, done] of waiting) done({ error: { message: `cmdguard acp exited: ${JSON.stringify(e)}\n${stderr.slice(-2000)}` } });
  waiting.clear();
});

let nextId = 0;
const waiting = new Map();
const updates = []; // session/update params
const perms = []; // session/request_permission params
const fileRequests = []; // [method, path]
const violations = []; // what must never reach the editor
let answerCmdguard = "reject"; // the person's answer to cmdguard's asks

function write(msg) {
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", ...msg }) + "\n");
}
function request(method, params, ms = 90000) {
  const id = ++nextId;
  write({ id, method, params });
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${method}: no answer in ${ms} ms`)), ms);
    waiting.set(id, (m) => {
      clearTimeout(t);
      m.error ? reject(new Error(`${method}: ${JSON.stringify(m.error)}`)) : resolve(m.result);
    });
  });
}
function answer(id, result, error) {
  write(error ? { id, error } : { id, result });
}
readline.createInterface({ input: child.stdout }).on("line", (line) => {
  let m;
  try {
    m = JSON.parse(line);
  } catch {
    violations.push("a line that is not JSON: " + line.slice(0, 200));
    return;
  }
  if (m.id !== undefined && !m.method) {
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
    return;
  }
  const p = m.params || {};
  switch (m.method) {
    case "session/update":
      updates.push(p);
      return;
    case "session/request_permission": {
      perms.push(p);
      const ours = String(p.toolCall?.toolCallId || "").startsWith("cmdguard-ask");
      const want = ours ? answerCmdguard : "allow_once";
      const opt = ours ? p.options.find((o) => o.optionId === want) : p.options.find((o) => o.kind === want);
      return answer(m.id, { outcome: opt ? { outcome: "selected", optionId: opt.optionId } : { outcome: "cancelled" } });
    }
    case "fs/read_text_file":
      fileRequests.push([m.method, p.path]);
      try {
        return answer(m.id, { content: fs.readFileSync(p.path, "utf8") });
      } catch (e) {
        return answer(m.id, undefined, { code: -32002, message: String(e) });
      }
    case "fs/write_text_file":
      fileRequests.push([m.method, p.path]);
      fs.writeFileSync(p.path, p.content);
      return answer(m.id, {});
    default:
      if (String(m.method).startsWith("terminal/")) violations.push(`the editor got ${m.method}: ${line.slice(0, 300)}`);
      if (m.id !== undefined) answer(m.id, undefined, { code: -32601, message: "Method not found" });
  }
});

// --- the scenarios -----------------------------------------------------------
let passed = 0,
  failed = 0;
function check(name, ok, detail) {
  if (ok) {
    passed++;
    console.log(`PASS ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}${detail ? "\n     " + String(detail).slice(0, 2000) : ""}`);
  }
}
const textOf = (u) => JSON.stringify(u.update?.content ?? u.update ?? "");

const init = await request("initialize", {
  protocolVersion: 1,
  clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
  clientInfo: { name: "fake-editor", version: "1" },
});
console.log(`agent: ${JSON.stringify(init.agentInfo ?? init.agentCapabilities ?? {})}`);
const { sessionId } = await request("session/new", { cwd: project, mcpServers: [] });

const claude = agentArgv.some((a) => a.includes("claude-code-acp"));
const bash = claude ? "mcp__acp__Bash" : "run_command";
const read = claude ? "mcp__acp__Read" : "read_file";
const readInput = (p) => (claude ? { file_path: p } : { path: p });

async function turn(tool, input) {
  plan = { tool, input };
  const before = { seen: seen.length, updates: updates.length, perms: perms.length, files: fileRequests.length };
  const r = await request("session/prompt", { sessionId, prompt: [{ type: "text", text: "please do it" }] });
  await new Promise((r) => setTimeout(r, 300)); // updates sent while the turn ended
  return {
    stop: r.stopReason,
    used: plan.used,
    result: seen.slice(before.seen).join("\n"),
    shown: updates.slice(before.updates).map(textOf).join("\n"),
    perms: perms.slice(before.perms),
    files: fileRequests.slice(before.files),
  };
}

{
  const t = await turn(bash, { command: "echo hello-from-the-agent", description: "greet", timeout: 60000 });
  check("allowed command: the model made the tool call", t.used, JSON.stringify(t));
  check("allowed command: the model got its output", t.result.includes("hello-from-the-agent"), t.result);
  check("allowed command: the person saw the command, its output and exit", t.shown.includes("$ echo hello-from-the-agent") && t.shown.includes("hello-from-the-agent\\n") && t.shown.includes("exit code 0"), t.shown);
}
{
  const t = await turn(bash, { command: "cat .env", description: "read the secret", timeout: 60000 });
  check("denied command: the model got cmdguard's reason", t.result.includes("ignore.denied"), t.result);
  check("denied command: the secret did not leak", !t.result.includes(secret) && !t.shown.includes(secret), t.result);
}
{
  answerCmdguard = "allow_once";
  const t = await turn(bash, { command: "touch made-by-agent", description: "make a file", timeout: 60000 });
  const ask = t.perms.find((p) => String(p.toolCall?.toolCallId).startsWith("cmdguard-ask"));
  check("ask: the person was asked through the editor", ask && ask.toolCall.title.includes("touch made-by-agent") && JSON.stringify(ask.toolCall.content).includes("policy.ask"), JSON.stringify(t.perms));
  check("ask: allow once, always, reject offered", ask && ask.options.map((o) => o.kind).join() === "allow_once,allow_always,reject_once", JSON.stringify(ask?.options));
  check("ask allowed once: the command ran", fs.existsSync(path.join(project, "made-by-agent")));
}
{
  answerCmdguard = "reject";
  const t = await turn(bash, { command: "touch rejected-by-person", description: "make another file", timeout: 60000 });
  check("ask rejected: the command did not run", !fs.existsSync(path.join(project, "rejected-by-person")));
  check("ask rejected: the model got cmdguard's refusal", t.result.includes("cmdguard refused"), t.result);
}
{
  answerCmdguard = "allow_always";
  await turn(bash, { command: "touch always-allowed", description: "make a third file", timeout: 60000 });
  const policy = fs.readFileSync(path.join(project, ".cmdguard.yaml"), "utf8");
  check("ask allowed always: ran and the policy gained the rule", fs.existsSync(path.join(project, "always-allowed")) && policy.includes("touch always-allowed"), policy);
}
{
  const t = await turn(read, readInput(path.join(project, ".env")));
  check("fs read of an ignored file: the editor never got it", !t.files.some(([, p]) => p.endsWith(".env")), JSON.stringify(t.files));
  check("fs read of an ignored file: the model got the reason, not the secret", t.result.includes("ignore.denied") && !t.result.includes(secret), t.result);
}
{
  const t = await turn(read, readInput(path.join(project, "a.txt")));
  check("fs read of a plain file: forwarded to the editor", t.files.some(([m, p]) => m === "fs/read_text_file" && p.endsWith("a.txt")), JSON.stringify(t.files));
  check("fs read of a plain file: the model got it", t.result.includes("just a file"), t.result);
}
if (!claude) {
  // The agent's own timeout: kill, then output carries the exit status.
  const t = await turn(bash, { command: "echo started; sleep 30", timeout_ms: 500 });
  check("kill after the agent's timeout: output then has the signal", t.result.includes("started") && t.result.includes('"signal":"SIGTERM"') && t.result.includes("killed after timeout"), t.result);
  const u = await turn(bash, { command: "printf 'x%.0s' $(seq 1 20000)" });
  check("a substitution is refused before it runs", u.result.includes("parser.command_substitution"), u.result);
}
check("no terminal/* request reached the editor", violations.length === 0, violations.join("\n"));

// The editor quits: cmdguard ends the agent and exits 0.
child.stdin.end();
const end = await Promise.race([exited, new Promise((r) => setTimeout(() => r(null), 15000))]);
check("editor quit: cmdguard acp exited 0", end && end.code === 0, JSON.stringify(end) + "\n" + stderr.slice(-2000));
if (failed) console.log("--- cmdguard acp stderr (last 4000 bytes) ---\n" + stderr.slice(-4000));
server.close();
fs.rmSync(project, { recursive: true, force: true });
fs.rmSync(home, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
