// cmdguard's plugin for opencode and the Kilo CLI.
//
// Every shell and file tool call is checked by `cmdguard hook` before it
// runs: the call goes to the command in this plugin's options (written by
// `cmdguard install opencode|kilo`, with this file; `--uninstall` removes
// both) as one JSON object on stdin, and the answer on stdout decides.
// Anything but an explicit allow (a deny, a crash, no answer, bad JSON, a
// timeout) throws: the tool does not run and the model is told why. An
// allow with "args" (the command rewritten to run under cmdguard's
// sandbox) is applied to the call's args before the tool runs.
//
// install replaces this file: do not edit it.
import { spawn } from "node:child_process";

// The tools cmdguard judges; every other tool runs without a check.
const judged = new Set([
  "bash", "shell",
  "read", "write", "edit", "multiedit", "grep", "glob", "list", "apply_patch", "patch",
  "notebook_read", "notebook_edit", "notebook_execute",
]);

const maxAnswer = 1 << 20;

// check runs argv with input on stdin and resolves to its exit code and
// output; it never rejects. Past timeoutMs the hook is killed.
function check(argv, input, timeoutMs) {
  return new Promise((resolve) => {
    let out = "", err = "", done = false, child;
    const finish = (r) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    const timer = setTimeout(() => {
      child?.kill("SIGKILL");
      finish({ failed: `no answer in ${timeoutMs / 1000}s` });
    }, timeoutMs);
    try {
      child = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "pipe"] });
    } catch (e) {
      return finish({ failed: String(e?.message ?? e) });
    }
    child.on("error", (e) => finish({ failed: String(e?.message ?? e) }));
    child.stdout.on("data", (b) => { if (out.length < maxAnswer) out += b; });
    child.stderr.on("data", (b) => { if (err.length < maxAnswer) err += b; });
    child.on("close", (code, signal) => finish({ code, signal, out, err }));
    child.stdin.on("error", () => {}); // the hook may answer before reading everything
    child.stdin.end(input);
  });
}

// verdict reads the hook's answer: { allow, reason, args }.
function verdict(r) {
  const denied = (why) => ({ allow: false, reason: `cmdguard: deny: ${why} (the plugin fails closed)` });
  if (r.failed) return denied(`the hook did not run: ${r.failed}`);
  let a;
  try {
    a = JSON.parse(r.out);
  } catch {
    return denied(`the hook's answer is not JSON (exit ${r.code ?? r.signal}): ${(r.err || r.out).trim().slice(0, 500)}`);
  }
  if (a === null || typeof a !== "object" || Array.isArray(a)) return denied("the hook's answer is not a JSON object");
  if (a.decision === "allow" && r.code === 0) {
    if (a.args === undefined) return { allow: true };
    if (a.args !== null && typeof a.args === "object" && !Array.isArray(a.args)) return { allow: true, args: a.args };
    return denied("the hook's args are not an object");
  }
  if (typeof a.reason === "string" && a.reason !== "") return { allow: false, reason: a.reason };
  return denied(`the hook answered ${JSON.stringify(a.decision)} with exit ${r.code ?? r.signal}`);
}

// The plugin. Only this function is exported: opencode calls every
// exported function as a plugin.
export const CmdguardPlugin = async (ctx, options) => {
  const argv = options?.command;
  const ok = Array.isArray(argv) && argv.length > 0 && argv.every((s) => typeof s === "string" && s !== "");
  const i = ok ? argv.indexOf("--agent") : -1;
  const agent = i >= 0 && i + 1 < argv.length ? argv[i + 1] : "opencode";
  const timeoutMs = Number.isFinite(options?.timeout) && options.timeout > 0 ? options.timeout : 10000;
  return {
    "tool.execute.before": async (input, output) => {
      if (!judged.has(input?.tool)) return;
      if (!ok) throw new Error("cmdguard: deny: the plugin has no command option (cmdguard install opencode|kilo writes it) (the plugin fails closed)");
      const call = {
        hook_event_name: "tool.execute.before",
        agent,
        tool: input.tool,
        session_id: input.sessionID,
        call_id: input.callID,
        directory: ctx?.directory,
        worktree: ctx?.worktree,
        tool_input: output?.args ?? null,
      };
      const v = verdict(await check(argv, JSON.stringify(call) + "\n", timeoutMs));
      if (!v.allow) throw new Error(v.reason);
      if (v.args) {
        // In place: the agent runs the tool with this very object.
        for (const [k, val] of Object.entries(v.args)) output.args[k] = val;
        if (v.args.command !== undefined && output.args.command !== v.args.command) {
          throw new Error("cmdguard: deny: the rewritten command could not be set (the plugin fails closed)");
        }
      }
    },
  };
};
