// Drives `cmdguard mcp` over stdio with the official MCP TypeScript client
// (@modelcontextprotocol/sdk): lists the tools, runs an allowed and a
// denied command, and checks the results. Usage: node client.mjs CMDGUARD
// (run by .ci/mcp.sh). Exits 1 on any failed check.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const bin = path.resolve(process.argv[2] || "cmdguard");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cmdguard-mcp-"));
fs.writeFileSync(path.join(dir, ".cmdguard.yaml"), "version: 1\nallow: [echo, cat, touch]\nignore: [.env]\n");
fs.writeFileSync(path.join(dir, ".env"), "SECRET=hunter2\n");

let failed = 0;
const check = (ok, what, detail) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) { failed++; if (detail !== undefined) console.log(JSON.stringify(detail, null, 2)); }
};
const text = (res) => (res.content || []).filter((c) => c.type === "text").map((c) => c.text).join("");

const client = new Client({ name: "cmdguard-ts-test", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: bin, args: ["mcp"], cwd: dir, stderr: "inherit" }));
try {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  check(JSON.stringify(names) === JSON.stringify(["check_command", "kill_command", "read_output", "run_command", "start_command", "write_stdin"]), `tools: ${names.join(", ")}`, tools);
  const run = tools.find((t) => t.name === "run_command");
  check(run?.inputSchema?.required?.includes("command") && run?.outputSchema?.properties?.exit_code, "run_command has an input and an output schema", run);

  const ok = await client.callTool({ name: "run_command", arguments: { command: "echo hello from ts" } });
  console.log("allowed:", JSON.stringify(ok.structuredContent));
  check(!ok.isError && ok.structuredContent?.stdout === "hello from ts\n" && ok.structuredContent?.exit_code === 0 && ok.structuredContent?.decision === "allow",
    "echo runs: stdout, exit_code 0, decision allow", ok);

  const denied = await client.callTool({ name: "run_command", arguments: { command: "touch ran; cat .env" } });
  console.log("denied:", text(denied).split("\n").slice(0, 6).join("\n"));
  check(denied.isError === true && denied.structuredContent?.decision === "deny" && denied.structuredContent?.status === "refused",
    "cat .env is refused: isError, decision deny, status refused", denied);
  check(text(denied).includes("ignore.denied") && !text(denied).includes("hunter2"), "the refusal names the rule and shows no secret", text(denied));
  check(!fs.existsSync(path.join(dir, "ran")), "the refused command did not run");

  const chk = await client.callTool({ name: "check_command", arguments: { command: "cat .env" } });
  check(chk.structuredContent?.decision === "deny" && chk.structuredContent?.reasons?.[0]?.rule === "ignore.denied", "check_command says deny with the rule", chk);
} finally {
  await client.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log(failed ? `${failed} check(s) failed` : "all checks passed");
process.exit(failed ? 1 : 0);
