// A fake model API on loopback for Claude Code, opencode and the Kilo CLI
// (Anthropic Messages),
// Gemini CLI (Gemini streamGenerateContent) and Codex (OpenAI Responses).
// The first turn of a run asks for one shell command, read from
// DIR/next_cmd; once the request carries the tool's result, the model says
// "done" and the result (what the model saw) is written to DIR/seen.json.
//
//   node fake-api.mjs DIR     (writes the port it listens on to DIR/port)
import http from "node:http";
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2];
const cmd = () => fs.readFileSync(path.join(dir, "next_cmd"), "utf8");
// next_cmd may instead be a JSON tool call {"tool": NAME, "input": {...}}
// (Claude Code's Read, Gemini's read_file): the agents' own file tools.
const call = (shell, key) => {
  const s = cmd();
  if (s.startsWith("{")) return JSON.parse(s);
  return { tool: shell, input: key === "cmd" ? { cmd: s } : { [key]: s, description: "run it" } };
};
const seen = (x) => fs.writeFileSync(path.join(dir, "seen.json"), JSON.stringify(x, null, 1));
const log = (s) => fs.appendFileSync(path.join(dir, "api.log"), s + "\n");
let n = 0;

function sse(res, events) {
  res.writeHead(200, { "content-type": "text/event-stream" });
  for (const [e, d] of events) res.write((e ? `event: ${e}\n` : "") + `data: ${JSON.stringify(d)}\n\n`);
  res.end();
}

function anthropic(j, res) {
  // Claude Code's shell tool is Bash; opencode's and the Kilo CLI's, bash.
  const names = (j.tools || []).map((t) => t.name);
  const shell = names.includes("Bash") ? "Bash" : names.includes("bash") ? "bash" : null;
  const msgs = j.messages || [];
  const results = msgs.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((b) => b.type === "tool_result") : []));
  const last = msgs.at(-1) || {};
  const result = Array.isArray(last.content) ? last.content.find((b) => b.type === "tool_result") : null;
  if (result) seen({ agent: "claude", tool_result: result, all: results });
  // next_cmd as a JSON array: one call per turn, in order (a session).
  const s = cmd();
  let c = null;
  if (s.startsWith("[")) {
    const steps = JSON.parse(s);
    if (results.length < steps.length) c = steps[results.length];
  } else if (!result) c = call(shell, "command");
  const bash = shell !== null && c !== null;
  const usage = { input_tokens: 10, output_tokens: 5 }, id = "msg_" + ++n;
  sse(res, [
    ["message_start", { type: "message_start", message: { id, type: "message", role: "assistant", model: j.model, content: [], stop_reason: null, usage } }],
    ["content_block_start", { type: "content_block_start", index: 0, content_block: bash ? { type: "tool_use", id: "toolu_" + n, name: c.tool, input: {} } : { type: "text", text: "" } }],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta: bash
      ? { type: "input_json_delta", partial_json: JSON.stringify(c.input) }
      : { type: "text_delta", text: "done" } }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", { type: "message_delta", delta: { stop_reason: bash ? "tool_use" : "end_turn" }, usage: { output_tokens: 5 } }],
    ["message_stop", { type: "message_stop" }],
  ]);
}

function gemini(url, j, res) {
  const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
  if (!url.includes(":streamGenerateContent")) { // the router's classifier, or anything else
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text: '{"reasoning":"x","model_choice":"pro"}' }] }, finishReason: "STOP", index: 0 }], usageMetadata }));
  }
  const last = (j.contents || []).at(-1) || {};
  const result = (last.parts || []).find((p) => p.functionResponse);
  if (result) seen({ agent: "gemini", functionResponse: result.functionResponse });
  const c = call("run_shell_command", "command");
  const part = result ? { text: "done" } : { functionCall: { name: c.tool, args: c.input } };
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.write(`data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }], usageMetadata })}\r\n\r\n`);
  res.end();
}

function openai(j, res) {
  const input = Array.isArray(j.input) ? j.input : [];
  const result = input.find((i) => i.type === "function_call_output");
  if (result) seen({ agent: "codex", function_call_output: result });
  const id = "resp_" + ++n;
  const item = result
    ? { type: "message", id: "msg_" + n, role: "assistant", content: [{ type: "output_text", text: "done", annotations: [] }] }
    : { type: "function_call", id: "fc_" + n, call_id: "call_" + n, name: "exec_command", arguments: JSON.stringify(call("exec_command", "cmd").input) };
  sse(res, [
    ["response.created", { type: "response.created", response: { id } }],
    ["response.output_item.done", { type: "response.output_item.done", output_index: 0, item }],
    ["response.completed", { type: "response.completed", response: { id, usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 } } }],
  ]);
}

const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    log(`${req.method} ${req.url}`);
    try {
      const j = body ? JSON.parse(body) : {};
      if (req.url.startsWith("/v1/messages/count_tokens")) { res.writeHead(200); return res.end('{"input_tokens":10}'); }
      if (req.url.startsWith("/v1/messages")) return anthropic(j, res);
      if (req.url.includes("/models/") && req.url.includes(":")) return gemini(req.url, j, res);
      if (req.url.startsWith("/v1/responses")) return openai(j, res);
      res.writeHead(404); res.end("{}");
    } catch (e) {
      log("error: " + e.stack);
      res.writeHead(500); res.end("{}");
    }
  });
});
server.listen(0, "127.0.0.1", () => fs.writeFileSync(path.join(dir, "port"), String(server.address().port)));
