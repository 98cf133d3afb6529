#!/usr/bin/env node
// A small ACP agent on the official TypeScript SDK (@agentclientprotocol/sdk)
// that runs shell commands the way real agents do: through the client's
// terminals. Its model is the fake Anthropic API of editor.mjs (FAKE_MODEL_URL):
// it offers the tools run_command {command, timeout_ms?} and read_file {path},
// does what the model asks — terminal/create with the whole command line,
// the terminal shown in a tool call, wait_for_exit raced against the timeout,
// kill on timeout then output (kimi-cli's order), release — and sends the
// result back to the model. Logs go to stderr: stdout is the protocol.
import * as acp from "@agentclientprotocol/sdk";
import { Readable, Writable } from "node:stream";

const model = process.env.FAKE_MODEL_URL;
const tools = [
  { name: "run_command", description: "run a shell command", input_schema: { type: "object", properties: { command: { type: "string" } } } },
  { name: "read_file", description: "read a file", input_schema: { type: "object", properties: { path: { type: "string" } } } },
];

// ask sends the conversation to the model and returns its content blocks.
async function ask(messages) {
  const res = await fetch(`${model}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "fake", max_tokens: 100, stream: true, tools, messages }),
  });
  const blocks = [];
  for (const chunk of (await res.text()).split("\n\n")) {
    const data = chunk.split("\n").find((l) => l.startsWith("data: "));
    if (!data) continue;
    const e = JSON.parse(data.slice(6));
    if (e.type === "content_block_start") blocks[e.index] = { ...e.content_block, json: "" };
    if (e.type === "content_block_delta" && e.delta.type === "input_json_delta") blocks[e.index].json += e.delta.partial_json;
    if (e.type === "content_block_delta" && e.delta.type === "text_delta") blocks[e.index].text += e.delta.text;
  }
  return blocks.map((b) => (b.type === "tool_use" ? { type: "tool_use", id: b.id, name: b.name, input: JSON.parse(b.json || "{}") } : { type: "text", text: b.text }));
}

const explain = (e) => (e instanceof Error ? `${e.message} ${JSON.stringify(e.data ?? "")}` : String(e));

async function runTool(client, sessionId, call) {
  await client.notify(acp.methods.client.session.update, {
    sessionId,
    update: { sessionUpdate: "tool_call", toolCallId: call.id, title: call.name, kind: call.name === "read_file" ? "read" : "execute", status: "pending", rawInput: call.input },
  });
  try {
    if (call.name === "read_file") {
      const r = await client.request(acp.methods.client.fs.readTextFile, { sessionId, path: call.input.path });
      return r.content;
    }
    const t = await client.createTerminal({ sessionId, command: call.input.command, outputByteLimit: 16384 });
    try {
      await client.notify(acp.methods.client.session.update, {
        sessionId,
        update: { sessionUpdate: "tool_call_update", toolCallId: call.id, status: "in_progress", content: [{ type: "terminal", terminalId: t.id }] },
      });
      let timer;
      const timeout = new Promise((r) => (timer = setTimeout(() => r(null), call.input.timeout_ms ?? 60000)));
      const exit = await Promise.race([t.waitForExit(), timeout]);
      clearTimeout(timer);
      if (exit === null) await t.kill(); // then read the status from output
      const out = await t.currentOutput();
      const status = out.exitStatus ?? exit;
      return `${out.output}\n[exit ${JSON.stringify(status)}${out.truncated ? ", truncated" : ""}${exit === null ? ", killed after timeout" : ""}]`;
    } finally {
      await t.release();
    }
  } catch (e) {
    return `error: ${explain(e)}`;
  }
}

const stream = acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin));
let clientCaps = {};
acp
  .agent({ name: "cmdguard-sdk-agent" })
  .onRequest(acp.methods.agent.initialize, ({ params }) => {
    clientCaps = params.clientCapabilities ?? {};
    console.error("agent: client capabilities", JSON.stringify(clientCaps));
    return { protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {}, agentInfo: { name: "cmdguard-sdk-agent", version: "1" } };
  })
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: "sess_" + Date.now() }))
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    if (!clientCaps.terminal) throw new Error("the client has no terminals");
    const messages = [{ role: "user", content: params.prompt.map((b) => ({ type: "text", text: b.text ?? "" })) }];
    for (let i = 0; i < 4; i++) {
      const blocks = await ask(messages);
      messages.push({ role: "assistant", content: blocks });
      const calls = blocks.filter((b) => b.type === "tool_use");
      if (calls.length === 0) break;
      const results = [];
      for (const call of calls) {
        const text = await runTool(client, params.sessionId, call);
        results.push({ type: "tool_result", tool_use_id: call.id, content: text });
        await client.notify(acp.methods.client.session.update, {
          sessionId: params.sessionId,
          update: { sessionUpdate: "tool_call_update", toolCallId: call.id, status: "completed", rawOutput: { text } },
        });
      }
      messages.push({ role: "user", content: results });
    }
    return { stopReason: "end_turn" };
  })
  .connect(stream);
