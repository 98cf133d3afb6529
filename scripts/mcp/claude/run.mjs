// Runs the real Claude Code (npm @anthropic-ai/claude-code) offline against
// a fake Anthropic Messages API on 127.0.0.1, with `cmdguard mcp` as its
// MCP server, and checks what happens when the "model" calls cmdguard's
// run_command: an allowed command runs, `cat .env` is refused and the model
// is told why, and an ask is not run without a person.
// Usage: node run.mjs CMDGUARD (run by .ci/mcp.sh).
// Exits 1 on any failed check.
import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.resolve(process.argv[2] || "cmdguard");
const claude = [
  path.join(here, "node_modules/@anthropic-ai/claude-code-linux-x64/claude"),
  path.join(here, "node_modules/@anthropic-ai/claude-code/bin/claude.exe"),
].find((p) => fs.existsSync(p));
if (!claude) { console.log("FAIL the claude binary is not installed"); process.exit(1); }
const TOOL = "mcp__cmdguard__run_command";

// The fake model: the first turn calls run_command with the command under
// test; once it gets the tool_result, it records it and ends the turn.
let nextCommand = "", lastResult = null, toolsSeen = [], n = 0;
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    if (req.url.startsWith("/v1/messages/count_tokens")) { res.writeHead(200); return res.end('{"input_tokens":10}'); }
    const j = JSON.parse(body || "{}");
    const last = (j.messages || []).at(-1) || {};
    const result = Array.isArray(last.content) && last.content.find((b) => b.type === "tool_result");
    if (result) lastResult = result;
    toolsSeen = (j.tools || []).map((t) => t.name);
    const call = toolsSeen.includes(TOOL) && !result;
    const id = "msg_" + ++n, usage = { input_tokens: 10, output_tokens: 5 };
    const ev = [
      ["message_start", { type: "message_start", message: { id, type: "message", role: "assistant", model: j.model, content: [], stop_reason: null, usage } }],
      ["content_block_start", { type: "content_block_start", index: 0, content_block: call ? { type: "tool_use", id: "toolu_" + n, name: TOOL, input: {} } : { type: "text", text: "" } }],
      ["content_block_delta", { type: "content_block_delta", index: 0, delta: call
        ? { type: "input_json_delta", partial_json: JSON.stringify({ command: nextCommand }) }
        : { type: "text_delta", text: "done" } }],
      ["content_block_stop", { type: "content_block_stop", index: 0 }],
      ["message_delta", { type: "message_delta", delta: { stop_reason: call ? "tool_use" : "end_turn" }, usage: { output_tokens: 5 } }],
      ["message_stop", { type: "message_stop" }],
    ];
    res.writeHead(200, { "content-type": "text/event-stream" });
    for (const [e, d] of ev) res.write(`event: ${e}\ndata: ${JSON.stringify(d)}\n\n`);
    res.end();
  });
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const port = server.address().port;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cmdguard-claude-"));
const proj = path.join(tmp, "proj"), home = path.join(tmp, "home");
fs.mkdirSync(proj); fs.mkdirSync(home);
fs.writeFileSync(path.join(proj, ".cmdguard.yaml"), "version: 1\nallow: [echo, cat]\nignore: [.env]\n");
fs.writeFileSync(path.join(proj, ".env"), "SECRET=hunter2\n");
const cfg = path.join(tmp, "mcp.json");
fs.writeFileSync(cfg, JSON.stringify({ mcpServers: { cmdguard: { type: "stdio", command: bin, args: ["mcp", "--cwd", proj] } } }));

// runClaude runs `claude -p` (asynchronously: the fake API answers from
// this process's event loop).
function runClaude(command) {
  nextCommand = command; lastResult = null;
  return new Promise((resolve) => {
    const p = spawn(claude, ["-p", "go", "--output-format", "json", "--model", "claude-sonnet-4-5",
      "--mcp-config", cfg, "--strict-mcp-config", "--allowedTools", TOOL], {
      cwd: proj, stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH, HOME: home, ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`, ANTHROPIC_API_KEY: "sk-test",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", IS_SANDBOX: "1",
        ENABLE_TOOL_SEARCH: "false", // MCP tools in the tool list, not behind ToolSearch
        MCP_CONNECTION_NONBLOCKING: "false" }, // connect the MCP server before the first model request
    });
    let stdout = "", stderr = "";
    p.stdout.on("data", (c) => (stdout += c));
    p.stderr.on("data", (c) => (stderr += c));
    const timer = setTimeout(() => p.kill("SIGKILL"), 120000);
    p.on("close", (status) => {
      clearTimeout(timer);
      let out = null;
      try { out = JSON.parse(stdout); } catch { }
      resolve({ status, out, stdout, stderr });
    });
  });
}
const resultText = (r) => (typeof r?.content === "string" ? r.content : (r?.content || []).map((c) => c.text || "").join(""));

let failed = 0;
const check = (ok, what, detail) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) { failed++; if (detail !== undefined) console.log(typeof detail === "string" ? detail : JSON.stringify(detail, null, 2)); }
};
try {
  const v = spawnSync(claude, ["--version"], { encoding: "utf8" });
  console.log("claude:", v.stdout.trim());

  let r = await runClaude("echo hello from claude > made.txt; echo done");
  check(toolsSeen.includes(TOOL), `Claude Code offered the model ${TOOL}`, toolsSeen);
  check(r.status === 0 && lastResult, "allowed: Claude Code ran the tool and returned its result", { status: r.status, stdout: r.stdout, stderr: r.stderr });
  console.log("allowed, the model saw:", resultText(lastResult));
  check(!lastResult?.is_error && fs.existsSync(path.join(proj, "made.txt")) && fs.readFileSync(path.join(proj, "made.txt"), "utf8") === "hello from claude\n",
    "allowed: the command ran (made.txt written)", lastResult);
  check(/"exit_code":\s*0/.test(resultText(lastResult)), "allowed: the model saw exit_code 0", resultText(lastResult));

  r = await runClaude("cat .env");
  check(r.status === 0 && lastResult, "denied: Claude Code returned the tool result", { status: r.status, stdout: r.stdout, stderr: r.stderr });
  console.log("denied, the model saw:\n" + resultText(lastResult));
  check(lastResult?.is_error === true, "denied: the tool result is an error", lastResult);
  check(resultText(lastResult).includes("ignore.denied") && resultText(lastResult).includes("refused"), "denied: the model sees why (rule ignore.denied)", resultText(lastResult));
  check(!JSON.stringify(lastResult).includes("hunter2"), "denied: the secret did not reach the model", lastResult);

  // An ask: Claude Code advertises elicitation; in -p mode nobody can
  // answer, so the command must not run and the model is told why.
  r = await runClaude("touch asked");
  console.log("ask, the model saw:\n" + resultText(lastResult));
  check(lastResult?.is_error === true && /approval/.test(resultText(lastResult)) && !fs.existsSync(path.join(proj, "asked")),
    "ask: not run without a person's approval, and the model is told so", lastResult);
} finally {
  server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(failed ? `${failed} check(s) failed` : "all checks passed");
process.exit(failed ? 1 : 0);
