// Checks adapter/settings/testdata/opencode-permission.json against opencode's
// own permission matching: the Wildcard.match function is read out of the
// installed opencode binary (a Bun executable that carries its JavaScript)
// and run here; a command's verdict is the action of the last
// permission.bash entry that matches it (opencode's evaluate: findLast),
// a string permission.bash being {"*": it}. TestImportOpencode checks that
// cmdguard gives the same verdicts after `cmdguard import opencode`.
//
//   node scripts/agents/opencode-permission.mjs [BINARY]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = process.argv[2] ?? path.join(here, "node_modules/opencode-linux-x64/bin/opencode");
const text = fs.readFileSync(bin).toString("latin1");
// The function whose body turns a glob into ^…$ with "( .*)?" for a
// trailing " *": the only one in the binary built that way.
const at = text.indexOf('( .*)?"');
if (at < 0) throw new Error("no Wildcard.match in " + bin);
const start = text.lastIndexOf("function ", at);
const end = text.indexOf(".test(", at);
const close = text.indexOf("}", end);
const src = text.slice(start, close + 1);
const name = /^function (\w+)/.exec(src)[1];
const match = new Function(`${src}; return ${name};`)();
console.log(`opencode's Wildcard.match, read from ${path.relative(process.cwd(), bin)}:\n  ${src}`);

const examples = JSON.parse(fs.readFileSync(path.join(here, "../../adapter/settings/testdata/opencode-permission.json"), "utf8"));
let fails = 0;
for (const ex of examples) {
  let bash = ex.config.permission.bash;
  if (typeof bash === "string") bash = { "*": bash };
  const rules = Object.entries(bash);
  for (const [cmd, want] of ex.cases) {
    const got = rules.findLast(([pattern]) => match(cmd, pattern))?.[1] ?? "ask";
    const ok = got === want;
    if (!ok) fails++;
    console.log(`  ${ok ? "ok  " : "FAIL"}  ${ex.name}: ${JSON.stringify(cmd)} is ${got} in opencode${ok ? "" : `, the table says ${want}`}`);
  }
}
if (fails) {
  console.log(`${fails} disagreement(s)`);
  process.exit(1);
}
console.log("opencode agrees with every row");
