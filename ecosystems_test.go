package cmdguard_test

import (
	"context"
	"os"
	osexec "os/exec"
	"path/filepath"
	"testing"

	"github.com/cmdguard/cmdguard"
)

// ecoCase is a real command people let their agents run, checked under
// the embedded default with the sandbox (sb) and without it (bare).
type ecoCase struct {
	cmd      string
	sb, bare cmdguard.Verdict
}

// ecoCommands are, per ecosystem, commands taken from public
// repositories' agent allow-lists and notes (the source is named above
// each group), plus the rows that must stay refused.
var ecoCommands = map[string][]ecoCase{
	// rjwalters/loom .claude/README.md (pnpm build, lint, format, test,
	// tauri:dev, daemon:dev, check:all, check:ci, clippy; pnpm install
	// asks: it fetches); BeMySlaveDarlin/cc-bootstrapper
	// prompts/bootstrap/templates/settings.json.tpl (make);
	// jezweb/get-started-with-claude-code archive/SETTINGS_GUIDE.md (npm
	// run dev, npm test, jest, vitest); an issue-32 sample row (npx tsc
	// --noEmit, tsc --noEmit, node --version, npm ls).
	"js": {
		{"pnpm build", cmdguard.Allow, cmdguard.Ask},
		{"pnpm lint", cmdguard.Allow, cmdguard.Ask},
		{"pnpm format", cmdguard.Allow, cmdguard.Ask},
		{"pnpm test", cmdguard.Allow, cmdguard.Ask},
		{"pnpm tauri:dev", cmdguard.Allow, cmdguard.Ask},
		{"pnpm daemon:dev", cmdguard.Allow, cmdguard.Ask},
		{"pnpm check:all", cmdguard.Allow, cmdguard.Ask},
		{"pnpm check:ci", cmdguard.Allow, cmdguard.Ask},
		{"pnpm clippy", cmdguard.Allow, cmdguard.Ask},
		{"yarn test:unit", cmdguard.Allow, cmdguard.Ask},
		{"pnpm -r install", cmdguard.Ask, cmdguard.Ask},
		{"yarn", cmdguard.Ask, cmdguard.Ask},
		{"yarn --cwd /tmp test", cmdguard.Ask, cmdguard.Ask},
		{"pnpm -C /tmp build", cmdguard.Ask, cmdguard.Ask},
		{"pnpm exec tsc", cmdguard.Ask, cmdguard.Ask},
		{"bun install", cmdguard.Ask, cmdguard.Ask},
		{"npm run dev", cmdguard.Allow, cmdguard.Ask},
		{"npm test", cmdguard.Allow, cmdguard.Ask},
		{"npm run build", cmdguard.Allow, cmdguard.Ask},
		{"npm run test -- --coverage", cmdguard.Allow, cmdguard.Ask},
		{"jest", cmdguard.Allow, cmdguard.Ask},
		{"vitest run", cmdguard.Allow, cmdguard.Ask},
		{"npx tsc --noEmit", cmdguard.Allow, cmdguard.Ask},
		{"tsc --noEmit", cmdguard.Allow, cmdguard.Ask},
		{"bun test", cmdguard.Allow, cmdguard.Ask},
		// dbalanco/claude-code perseon/development/docs/technical/
		// claude-code/settings.local.json.md (npm run type-check, npm run
		// dev, npx tsx; npm install asks).
		{"npm run type-check", cmdguard.Allow, cmdguard.Ask},
		{"npx tsx scripts/seed.ts", cmdguard.Allow, cmdguard.Ask},
		{"npm install", cmdguard.Allow, cmdguard.Ask}, // issue 27: under the sandbox with the default's host list
		{"npx playwright test", cmdguard.Allow, cmdguard.Ask},
		{"npx vite build", cmdguard.Allow, cmdguard.Ask},
		{"npx playwright install", cmdguard.Ask, cmdguard.Ask},
		{"node --version", cmdguard.Allow, cmdguard.Allow},
		{"npm ls", cmdguard.Allow, cmdguard.Allow},
		{"pnpm install", cmdguard.Allow, cmdguard.Ask},
		{"npm run build --prefix /tmp", cmdguard.Ask, cmdguard.Ask},
		{"npm test --script-shell=/tmp/sh", cmdguard.Ask, cmdguard.Ask},
		{"node -e 'require(\"fs\")'", cmdguard.Ask, cmdguard.Ask},
		{"node -r /tmp/hook.js app.js", cmdguard.Ask, cmdguard.Ask},
		{"npx -p evil-pkg tsc", cmdguard.Ask, cmdguard.Ask},
	},
	// alemar11/mangapy docs/Development.md (uv run python -m pytest; uv
	// sync asks); jezweb/get-started-with-claude-code
	// archive/SETTINGS_GUIDE.md (pytest; python -m http.server asks);
	// siwenwang0803/PromptStrike promptstrike/ai-chunks/.claude/
	// settings.local_ck0.md (python -c and make -f outside ask); issue
	// 32's sample (python -m py_compile, uv run ruff check ., pip list,
	// pip freeze).
	"python": {
		{"uv run python -m pytest", cmdguard.Allow, cmdguard.Ask},
		{"pytest", cmdguard.Allow, cmdguard.Ask},
		{"python -m pytest -x -q", cmdguard.Allow, cmdguard.Ask},
		{"python3 -m py_compile src/app.py", cmdguard.Allow, cmdguard.Ask},
		{"uv run ruff check .", cmdguard.Allow, cmdguard.Ask},
		{"ruff format .", cmdguard.Allow, cmdguard.Ask},
		{"mypy src", cmdguard.Allow, cmdguard.Ask},
		{"black .", cmdguard.Allow, cmdguard.Ask},
		{"pip list", cmdguard.Allow, cmdguard.Allow},
		{"pip freeze", cmdguard.Allow, cmdguard.Allow},
		{"python3 --version", cmdguard.Allow, cmdguard.Allow},
		{"uv sync", cmdguard.Allow, cmdguard.Ask}, // issue 27
		{"uv run --frozen pytest", cmdguard.Allow, cmdguard.Ask},
		{"uv run myscript", cmdguard.Ask, cmdguard.Ask},
		{"uv run python -c 'import os'", cmdguard.Ask, cmdguard.Ask},
		{"uv run python -m http.server", cmdguard.Ask, cmdguard.Ask},
		{"python -W ignore -m http.server", cmdguard.Ask, cmdguard.Ask},
		{"python -m http.server", cmdguard.Ask, cmdguard.Ask},
		{"python -c 'import os'", cmdguard.Ask, cmdguard.Ask},
		{"pytest -p evil_plugin", cmdguard.Ask, cmdguard.Ask},
		{"pip install requests", cmdguard.Allow, cmdguard.Ask}, // issue 27
	},
	// jdx/hk x (cargo build, check, test); rjwalters/loom
	// .claude/README.md (cargo check, build, test); issue 32's sample
	// (cargo clippy, cargo tree).
	"rust": {
		{"cargo build", cmdguard.Allow, cmdguard.Ask},
		{"cargo check", cmdguard.Allow, cmdguard.Ask},
		{"cargo test", cmdguard.Allow, cmdguard.Ask},
		{"cargo test --workspace -- --nocapture", cmdguard.Allow, cmdguard.Ask},
		{"cargo clippy --all-targets -- -D warnings", cmdguard.Allow, cmdguard.Ask},
		{"cargo fmt --all", cmdguard.Allow, cmdguard.Ask},
		{"cargo tree", cmdguard.Allow, cmdguard.Allow},
		{"cargo --version", cmdguard.Allow, cmdguard.Allow},
		{"cargo --config build.rustc-wrapper=/tmp/x build", cmdguard.Ask, cmdguard.Ask},
		{"cargo install ripgrep", cmdguard.Ask, cmdguard.Ask},
	},
	// tony1223/ci-load-analyzer-plugin CLAUDE.md (./gradlew buildPlugin,
	// runIde, verifyPlugin, clean); issue 32's sample (./gradlew build,
	// mvn test).
	"jvm": {
		{"./gradlew buildPlugin", cmdguard.Allow, cmdguard.Ask},
		{"./gradlew runIde", cmdguard.Allow, cmdguard.Ask},
		{"./gradlew verifyPlugin", cmdguard.Allow, cmdguard.Ask},
		{"./gradlew clean", cmdguard.Allow, cmdguard.Ask},
		{"./gradlew build", cmdguard.Allow, cmdguard.Ask},
		{"./gradlew test --tests com.example.FooTest", cmdguard.Allow, cmdguard.Ask},
		{"mvn test", cmdguard.Allow, cmdguard.Ask},
		{"mvn -B -q verify", cmdguard.Allow, cmdguard.Ask},
		{"./gradlew publish", cmdguard.Ask, cmdguard.Ask},
		{"./gradlew -Dorg.gradle.java.home=/tmp/jdk build", cmdguard.Ask, cmdguard.Ask},
		{"mvn -s /tmp/settings.xml deploy", cmdguard.Ask, cmdguard.Ask},
	},
	// BeMySlaveDarlin/cc-bootstrapper settings.json.tpl (make);
	// siwenwang0803/PromptStrike (make -f /outside/makefile asks).
	"build": {
		{"make", cmdguard.Allow, cmdguard.Ask},
		{"make test", cmdguard.Allow, cmdguard.Ask},
		{"just test", cmdguard.Allow, cmdguard.Ask},
		{"task build", cmdguard.Allow, cmdguard.Ask},
		{"make -f /tmp/makefile install", cmdguard.Ask, cmdguard.Ask},
		{"make SHELL=/tmp/sh", cmdguard.Ask, cmdguard.Ask},
	},
	// Issue 32's "the project's own scripts (./x.sh, bin/x)";
	// jezweb/get-started-with-claude-code archive/SETTINGS_GUIDE.md
	// (./scripts/*); tony1223/ci-load-analyzer-plugin CLAUDE.md
	// (./gradlew, above). {project} in policy/default.yaml.
	"scripts": {
		{"./x.sh", cmdguard.Allow, cmdguard.Ask},
		{"bin/x", cmdguard.Allow, cmdguard.Ask},
		{"scripts/test.sh arg", cmdguard.Allow, cmdguard.Ask},
		{"./scripts/test.sh --verbose", cmdguard.Allow, cmdguard.Ask},
		{"../x.sh", cmdguard.Ask, cmdguard.Ask},
		{"/tmp/x.sh", cmdguard.Ask, cmdguard.Ask},
		{"./missing.sh", cmdguard.Ask, cmdguard.Ask},
		{"printf 'id' > x.sh && ./x.sh", cmdguard.Ask, cmdguard.Ask},
	},
	// issue 32's sample (uname -a, hostname, uptime).
	"host": {
		{"uname -a", cmdguard.Allow, cmdguard.Allow},
		{"hostname", cmdguard.Allow, cmdguard.Allow},
		{"uptime", cmdguard.Allow, cmdguard.Allow},
		{"nproc", cmdguard.Allow, cmdguard.Allow},
		{"free -h", cmdguard.Allow, cmdguard.Allow},
		{"hostname evil", cmdguard.Ask, cmdguard.Ask},
		{"date 010100002030", cmdguard.Ask, cmdguard.Ask},
	},
	// Issue 30: what no one wants run unasked, and formatters in place.
	"destructive": {
		{"rm -rf /", cmdguard.Deny, cmdguard.Deny},
		{"rm -fr /", cmdguard.Deny, cmdguard.Deny},
		{"/bin/rm --recursive --force /", cmdguard.Deny, cmdguard.Deny},
		{"rm -rf ..", cmdguard.Deny, cmdguard.Deny},
		{"mkfs.ext4 /dev/sda1", cmdguard.Deny, cmdguard.Deny},
		{":(){ :|:& };:", cmdguard.Deny, cmdguard.Deny},
		{"gofmt -w src/a.go", cmdguard.Allow, cmdguard.Ask},
		{"gofmt -w .env", cmdguard.Deny, cmdguard.Deny},
		// Under the sandbox the policy file is read-only: the write fails there
		// (issue 24: what the sandbox enforces is not asked about).
		{"black .cmdguard.yaml", cmdguard.Allow, cmdguard.Deny},
	},
}

// TestEcosystemsDefault checks every row under the embedded default, with
// and without the sandbox.
func TestEcosystemsDefault(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{".env": "SECRET=1\n", "src/a.go": "package a\n", "src/app.py": "x = 1\n", "app.js": "1\n",
		"x.sh": "#!/bin/sh\n", "bin/x": "#!/bin/sh\n", "scripts/test.sh": "#!/bin/sh\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	for eco, cases := range ecoCommands {
		for _, tc := range cases {
			for _, sb := range []bool{true, false} {
				want := tc.bare
				if sb {
					want = tc.sb
				}
				d, err := g.Check(context.Background(), cmdguard.Request{Command: tc.cmd, Sandboxed: sb})
				if err != nil {
					t.Fatal(err)
				}
				if d.Verdict != want {
					t.Errorf("%s: %q sandboxed=%v: %v, want %v (%v)", eco, tc.cmd, sb, d.Verdict, want, d.Reasons)
				}
			}
		}
	}
}

// TestFormattersUnderPolicy: a policy that allows a formatter allows it
// to rewrite files in place (gofmt -w was a guard, which asked whatever
// the policy said); the rewritten files are writes, which the ignore and
// protection rules still refuse.
func TestFormattersUnderPolicy(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{
		".cmdguard.yaml": "version: 1\ndefault: ask\nallow: [gofmt, black, rustfmt, prettier]\nignore: [.env]\n",
		".env":           "SECRET=1\n", "src/a.go": "package a\n", "src/a.py": "x = 1\n", "src/main.rs": "fn main() {}\n", "src/a.ts": "let a = 1\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		want cmdguard.Verdict
	}{
		{"gofmt -w src/a.go", cmdguard.Allow},
		{"gofmt -l -w src", cmdguard.Allow},
		{"black src/a.py", cmdguard.Allow},
		{"rustfmt src/main.rs", cmdguard.Allow},
		{"prettier -w src/a.ts", cmdguard.Allow},
		{"gofmt -w .env", cmdguard.Deny},
		{"black .cmdguard.yaml", cmdguard.Deny},
		{"gofmt -w ../outside.go", cmdguard.Ask},
		{"gofmt -cpuprofile p src/a.go", cmdguard.Ask},
	} {
		d, err := g.Check(context.Background(), cmdguard.Request{Command: tc.cmd})
		if err != nil {
			t.Fatal(err)
		}
		if d.Verdict != tc.want {
			t.Errorf("%q under allow: [gofmt, black, rustfmt, prettier]: %v, want %v (%v)", tc.cmd, d.Verdict, tc.want, d.Reasons)
		}
	}
}

// TestFormattersReal: the gate's reading of a formatter's operand (a
// write, or a read in check mode) against what the installed formatter
// does to a badly formatted file, run for real in a copy of the project.
// A formatter not installed here is skipped loudly; the gate's side of
// every formatter is in testdata/gate/misread.txtar.
func TestFormattersReal(t *testing.T) {
	files := map[string]string{"src/m.rs": "fn main(){let x=1;}\n", "src/a.go": "package a\nvar  x=1\n"}
	for _, tc := range []struct {
		tool, cmd, file string
	}{
		{"rustfmt", "rustfmt src/m.rs", "src/m.rs"},
		{"rustfmt", "rustfmt --check src/m.rs", "src/m.rs"},
		{"rustfmt", "rustfmt --emit=stdout src/m.rs", "src/m.rs"},
		{"rustfmt", "rustfmt --emit stdout src/m.rs", "src/m.rs"},
		{"rustfmt", "rustfmt --emit files src/m.rs", "src/m.rs"},
		{"gofmt", "gofmt -w src/a.go", "src/a.go"},
		{"gofmt", "gofmt -w=true src/a.go", "src/a.go"},
		{"gofmt", "gofmt -l src/a.go", "src/a.go"},
		{"gofmt", "gofmt -d src/a.go", "src/a.go"},
		{"ruff", "ruff format src/a.py", "src/a.py"},
		{"ruff", "ruff format --check src/a.py", "src/a.py"},
		{"black", "black src/a.py", "src/a.py"},
		{"black", "black --check src/a.py", "src/a.py"},
		{"prettier", "prettier --write src/a.ts", "src/a.ts"},
		{"prettier", "prettier --check src/a.ts", "src/a.ts"},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			if _, err := osexec.LookPath(tc.tool); err != nil {
				t.Skipf("SKIPPED: %s is not installed here, so %q cannot run", tc.tool, tc.cmd)
			}
			root := t.TempDir()
			all := map[string]string{"src/a.py": "x = [1,\n2]\n", "src/a.ts": "let a = {b:1}\n"}
			for k, v := range files {
				all[k] = v
			}
			for name, body := range all {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			g, err := cmdguard.Open(root)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close(context.Background())
			d, err := g.Check(context.Background(), cmdguard.Request{Command: tc.cmd})
			if err != nil {
				t.Fatal(err)
			}
			gateWrites, seen := false, false
			for _, c := range d.Commands {
				for _, f := range c.Files {
					if f.Path == tc.file {
						seen, gateWrites = true, gateWrites || f.Write
					}
				}
			}
			if !seen {
				t.Fatalf("%q: the gate names no %s (%+v)", tc.cmd, tc.file, d.Commands)
			}
			c := osexec.Command("bash", "-c", tc.cmd)
			c.Dir = root
			out, _ := c.CombinedOutput()
			b, err := os.ReadFile(filepath.Join(root, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if changed := string(b) != all[tc.file]; changed != gateWrites {
				t.Errorf("%q: the formatter changed %s: %v; the gate reads it as written: %v\n%s", tc.cmd, tc.file, changed, gateWrites, out)
			}
		})
	}
}
