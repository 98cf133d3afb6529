// Drives `cmdguard serve` with the AIO sandbox's own TypeScript SDK
// (agent-infra/sandbox, sdk/js): bash.exec, output, write, kill, sessions,
// createSession and closeSession, checking every answer.
//
// usage: node aio-sdk-driver.mjs SDK_INDEX_JS BASE_URL PROJECT_DIR [TOKEN]
// (scripts/serve/aio-sdk.sh builds the SDK and starts the server.)
import { pathToFileURL } from "node:url";

const [sdkIndex, baseUrl, project, token] = process.argv.slice(2);
const sdk = await import(pathToFileURL(sdkIndex).href);
const SandboxClient = sdk.SandboxClient ?? sdk.default.SandboxClient;
const client = new SandboxClient({
  baseUrl,
  ...(token ? { headers: { Authorization: `Bearer ${token}` } } : {}),
});

let fails = 0;
function check(name, cond, got) {
  if (cond) {
    console.log(`ok   ${name}`);
  } else {
    fails++;
    console.log(`FAIL ${name}: ${JSON.stringify(got)}`);
  }
}

// 1. The guide's SDK example.
let r = await client.bash.exec({
  command: 'printf "out\\n" && printf "err\\n" >&2',
  timeout: 30,
  hard_timeout: 120,
});
let d = r.body?.data;
check("exec: completed with both streams", r.ok && r.body.success && d.status === "completed" &&
  d.stdout === "out\n" && d.stderr === "err\n" && d.exit_code === 0 && d.offset === 4, r.body ?? r.error);

// 2. A refused command: HTTP 200, so the SDK hands the body over.
r = await client.bash.exec({ command: "cat .env" });
d = r.body?.data;
check("exec cat .env: refused with its reasons, no throw", r.ok && r.body.success === false &&
  d.status === "refused" && d.decision === "deny" &&
  d.reasons.some((x) => x.rule === "ignore.denied" && x.pos.line === 1 && x.pos.col === 5) &&
  r.body.message.startsWith("refused by cmdguard") && r.body.hint.includes("^"), r.body ?? r.error);

// 3. env per command and gated.
r = await client.bash.exec({ command: "echo ${MY_VAR:-unset}", env: { MY_VAR: "from-sdk" } });
check("exec with env", r.ok && r.body.data.stdout === "from-sdk\n", r.body ?? r.error);
r = await client.bash.exec({ command: "echo hi", env: { BASH_ENV: "/tmp/x" } });
check("exec with BASH_ENV: refused", r.ok && r.body.data.status === "refused" &&
  r.body.data.reasons.some((x) => x.source === "env:BASH_ENV"), r.body ?? r.error);

// 4. Soft timeout, then a waiting output call.
r = await client.bash.exec({ command: "sleep 1; echo done", timeout: 0.3, hard_timeout: 30 });
d = r.body?.data;
check("exec with timeout: running", r.ok && d.status === "running", r.body ?? r.error);
let o = await client.bash.output({ session_id: d.session_id, command_id: d.command_id, offset: d.offset, wait: true, wait_timeout: 10 });
check("output wait: completed with the output", o.ok && o.body.data.command.status === "completed" &&
  o.body.data.stdout === "done\n" && o.body.data.offset === 5, o.body ?? o.error);

// 5. Hard timeout.
r = await client.bash.exec({ command: "sleep 30", hard_timeout: 0.5 });
check("exec with hard_timeout: timed_out", r.ok && r.body.data.status === "timed_out", r.body ?? r.error);

// 6. async cat, write, output, kill.
r = await client.bash.exec({ command: "cat", async_mode: true, hard_timeout: 120 });
const sid = r.body?.data?.session_id;
check("exec async: running", r.ok && r.body.data.status === "running", r.body ?? r.error);
let w = await client.bash.write({ session_id: sid, input: "hello from the sdk\n" });
check("write", w.ok && w.body.success, w.body ?? w.error);
o = await client.bash.output({ session_id: sid, offset: 0, wait: true, wait_timeout: 5 });
check("output after write", o.ok && o.body.data.stdout === "hello from the sdk\n" && o.body.data.command.status === "running", o.body ?? o.error);
let k = await client.bash.kill({ session_id: sid, signal: "SIGINT" });
check("kill SIGINT", k.ok && k.body.success && k.body.data.status === "killed", k.body ?? k.error);

// 7. max_output_length cuts the middle at character boundaries.
r = await client.bash.exec({ command: "printf 'éééééààààà'", max_output_length: 5 });
check("max_output_length", r.ok && r.body.data.stdout === "éé\n...[5 characters truncated]...\nààà" && r.body.data.offset === 20, r.body ?? r.error);

// 8. Sessions: create with exec_dir, exec in it, list, close.
const s = await client.bash.createSession({ session_id: "sdk-session", exec_dir: project + "/sub" });
check("createSession", s.ok && s.body.data.session_id === "sdk-session" && s.body.data.working_dir === project + "/sub", s.body ?? s.error);
r = await client.bash.exec({ session_id: "sdk-session", command: "cd .. && pwd" });
r = await client.bash.exec({ session_id: "sdk-session", command: "pwd" });
check("exec keeps the session's exec_dir, not cd", r.ok && r.body.data.stdout === project + "/sub\n", r.body ?? r.error);
const l = await client.bash.sessions();
check("sessions", l.ok && l.body.data.some((x) => x.session_id === "sdk-session" && x.command_count === 2 && x.status === "ready"), l.body ?? l.error);
const c = await client.bash.closeSession("sdk-session");
check("closeSession", c.ok && c.body.success && c.body.data.status === "closed", c.body ?? c.error);

// 9. Errors: 422 in FastAPI's shape, 404 with the envelope.
r = await client.bash.exec({ command: "pwd", exec_dir: "relative/dir" });
check("exec with a relative exec_dir: 422 UnprocessableEntityError", !r.ok && r.error.statusCode === 422 &&
  r.error.content.detail[0].loc.join(".") === "body.exec_dir", r.error);
o = await client.bash.output({ session_id: "no-such-session" });
check("output of an unknown session: 404 with the envelope", !o.ok && o.error.content.statusCode === 404 &&
  o.error.content.body.success === false && o.error.content.body.message === "session not found: no-such-session", o.error);

console.log(fails ? `aio-sdk: ${fails} check(s) failed` : "aio-sdk: every SDK call answered as expected");
process.exit(fails ? 1 : 0);
