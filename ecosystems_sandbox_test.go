package cmdguard_test

import (
	"context"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard"
)

// ecoSecret is the content of the project's .env in the differential
// rows below.
const ecoSecret = "ECO_SECRET_8f2c1e"

// TestEcosystemsSandboxDifferential: per runner the embedded default
// allows under the sandbox, the project's own code (a test, a script, a
// recipe) reads the secret .env. Run for real without the sandbox (not
// through the gate, which asks), it prints the secret, which shows the
// row can fail; through Guard.Run with the sandbox, the gate allows it
// and the sandbox keeps .env unread (it reads as an empty file there, or
// not at all). Each program prints "ran" first, so that a run that never
// reached the project's code does not pass.
func TestEcosystemsSandboxDifferential(t *testing.T) {
	rows := []struct {
		name, tool, command string
		files               map[string]string
	}{
		{"npm test", "npm", "npm test 2>&1", map[string]string{
			"package.json": `{"name":"p","version":"1.0.0","scripts":{"test":"node t.js"}}` + "\n",
			"t.js":         "console.log('ran'); try { console.log(require('fs').readFileSync('.env', 'utf8')) } catch (e) { console.log('unread: ' + e.code) }\n",
		}},
		{"npm run build", "npm", "npm run build 2>&1", map[string]string{
			"package.json": `{"name":"p","version":"1.0.0","scripts":{"build":"node t.js"}}` + "\n",
			"t.js":         "console.log('ran'); try { console.log(require('fs').readFileSync('.env', 'utf8')) } catch (e) { console.log('unread: ' + e.code) }\n",
		}},
		{"node FILE", "node", "node t.js 2>&1", map[string]string{
			"t.js": "console.log('ran'); try { console.log(require('fs').readFileSync('.env', 'utf8')) } catch (e) { console.log('unread: ' + e.code) }\n",
		}},
		{"python3 -m unittest", "python3", "python3 -m unittest -q 2>&1", map[string]string{
			"test_env.py": "import unittest\n\nclass T(unittest.TestCase):\n    def test_read(self):\n        print('ran')\n        try:\n            print(open('.env').read())\n        except OSError as e:\n            print('unread:', e)\n",
		}},
		{"python3 FILE", "python3", "python3 t.py 2>&1", map[string]string{
			"t.py": "print('ran')\ntry:\n    print(open('.env').read())\nexcept OSError as e:\n    print('unread:', e)\n",
		}},
		{"make", "make", "make -s 2>&1", map[string]string{
			"Makefile": "all:\n\t@echo ran; cat .env || echo unread\n",
		}},
		{"cargo test", "cargo", "cargo test -q --offline -- --nocapture 2>&1", map[string]string{
			"Cargo.toml": "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
			"src/lib.rs": "#[test]\nfn reads() {\n    println!(\"ran\");\n    match std::fs::read_to_string(\".env\") {\n        Ok(s) => println!(\"{s}\"),\n        Err(e) => println!(\"unread: {e}\"),\n    }\n}\n",
		}},
		{"pytest", "pytest", "pytest -q -s 2>&1", map[string]string{
			"test_env.py": "def test_read():\n    print('ran')\n    try:\n        print(open('.env').read())\n    except OSError as e:\n        print('unread:', e)\n",
		}},
		{"pnpm test", "pnpm", "pnpm test 2>&1", map[string]string{
			"package.json": `{"name":"p","version":"1.0.0","scripts":{"test":"node t.js"}}` + "\n",
			"t.js":         "console.log('ran'); try { console.log(require('fs').readFileSync('.env', 'utf8')) } catch (e) { console.log('unread: ' + e.code) }\n",
		}},
		{"yarn test", "yarn", "yarn test 2>&1", map[string]string{
			"package.json": `{"name":"p","version":"1.0.0","scripts":{"test":"node t.js"}}` + "\n",
			"t.js":         "console.log('ran'); try { console.log(require('fs').readFileSync('.env', 'utf8')) } catch (e) { console.log('unread: ' + e.code) }\n",
		}},
		{"bun run", "bun", "bun run t.js 2>&1", map[string]string{"t.js": "console.log('ran'); try { console.log(require('fs').readFileSync('.env', 'utf8')) } catch (e) { console.log('unread: ' + e.code) }\n"}},
		{"just", "just", "just 2>&1", map[string]string{"justfile": "all:\n\t@echo ran; cat .env || echo unread\n"}},
		{"task", "task", "task 2>&1", map[string]string{"Taskfile.yml": "version: '3'\ntasks:\n  default:\n    cmds:\n      - echo ran; cat .env || echo unread\n"}},
		// The project's own scripts, by their path ({project}): a shell
		// script and a file of bin/ with a shebang.
		{"./x.sh", "sh", "./x.sh 2>&1", map[string]string{"x.sh": "#!/bin/sh\necho ran; cat .env || echo unread\n"}},
		{"scripts/test.sh arg", "sh", "scripts/test.sh arg 2>&1", map[string]string{"scripts/test.sh": "#!/bin/sh\necho ran \"$1\"; cat .env || echo unread\n"}},
		{"bin/x", "python3", "bin/x 2>&1", map[string]string{"bin/x": "#!/usr/bin/env python3\nprint('ran')\ntry:\n    print(open('.env').read())\nexcept OSError as e:\n    print('unread:', e)\n"}},
		// npx of a binary the project holds in node_modules/.bin.
		{"npx BIN", "npx", "npx tool 2>&1", map[string]string{
			"package.json":           `{"name":"p","version":"1.0.0"}` + "\n",
			"node_modules/.bin/tool": "#!/usr/bin/env node\nconsole.log('ran'); try { console.log(require('fs').readFileSync('.env', 'utf8')) } catch (e) { console.log('unread: ' + e.code) }\n",
		}},
		{"gradle", "gradle", "gradle -q --offline run 2>&1", map[string]string{
			"build.gradle":    "tasks.register('run') { doLast { println 'ran'; println(new File(projectDir, '.env').text) } }\n",
			"settings.gradle": "",
		}},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			if _, err := osexec.LookPath(row.tool); err != nil {
				t.Skipf("SKIPPED: %s is not installed here, so the %s row cannot run", row.tool, row.name)
			}
			root := t.TempDir()
			home := t.TempDir()
			files := map[string]string{".env": ecoSecret + "\n"}
			for k, v := range row.files {
				files[k] = v
			}
			for name, body := range files {
				f := filepath.Join(root, name)
				if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
					t.Fatal(err)
				}
				mode := os.FileMode(0o644)
				if strings.HasSuffix(name, ".sh") || strings.HasPrefix(name, "bin/") || strings.Contains(name, ".bin/") {
					mode = 0o755 // a script the project runs by its path
				}
				if err := os.WriteFile(f, []byte(body), mode); err != nil {
					t.Fatal(err)
				}
			}
			env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "npm_config_cache=" + filepath.Join(home, "npmcache"),
				"npm_config_update_notifier=false", "CARGO_HOME=" + os.Getenv("CARGO_HOME"), "RUSTUP_HOME=" + os.Getenv("RUSTUP_HOME"),
				"CARGO_TARGET_DIR=" + filepath.Join(root, "target")}
			if row.tool == "cargo" {
				// rustup's toolchains live under the real home when
				// CARGO_HOME and RUSTUP_HOME are not set.
				if h, err := os.UserHomeDir(); err == nil && os.Getenv("CARGO_HOME") == "" {
					env = append(env, "CARGO_HOME="+filepath.Join(h, ".cargo"), "RUSTUP_HOME="+filepath.Join(h, ".rustup"))
				}
			}
			// The control: the project's code reads the secret.
			c := osexec.Command("bash", "-c", row.command)
			c.Dir, c.Env = root, env
			out, _ := c.CombinedOutput()
			if !strings.Contains(string(out), ecoSecret) {
				t.Fatalf("without the sandbox %q did not read .env, so the row proves nothing:\n%s", row.command, out)
			}
			g, err := cmdguard.Open(root)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			d, r, err := g.Run(ctx, cmdguard.RunRequest{Request: cmdguard.Request{Command: row.command, BaseEnv: env}, Sandbox: true})
			if err != nil {
				t.Fatal(err)
			}
			if d.Verdict != cmdguard.Allow {
				t.Fatalf("%q under the default with the sandbox: %v, want allow (%v)", row.command, d.Verdict, d.Reasons)
			}
			got := string(r.Stdout.Data) + string(r.Stderr.Data)
			if strings.Contains(got, ecoSecret) {
				t.Errorf("%q in the sandbox read .env:\n%s", row.command, got)
			}
			if !strings.Contains(got, "ran") {
				t.Errorf("%q in the sandbox did not run the project's code to the read: %s\n%s", row.command, r.Explain(), got)
			}
		})
	}
}
