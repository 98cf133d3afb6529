package parser

import (
	"slices"
	"strings"
	"testing"
)

// The ecosystem entries' check guards (programs_jsts.go, programs_python.go,
// programs_rust.go, programs_jvm.go, programs_build.go, programs_host.go):
// one command each must catch and one it must let pass, for
// TestProgramEntries.
func init() {
	for name, s := range map[string][2]string{
		"npm":             {"npm --prefix /tmp test", "npm -s test"},
		"npm test":        {"npm test --script-shell=/tmp/x", "npm test -- --watch"},
		"npm t":           {"npm t --node-options=--require=/tmp/x", "npm t"},
		"npm tst":         {"npm tst --prefix /tmp", "npm tst --silent"},
		"npm run":         {"npm run build --prefix /tmp/x", "npm run build -- --prod"},
		"npm run-script":  {"npm run-script x --shell=/bin/evil", "npm run-script x --if-present"},
		"npm rum":         {"npm rum x --userconfig /tmp/rc", "npm rum x"},
		"npm urn":         {"npm urn x -w /tmp", "npm urn x -w pkgs/a"},
		"npm start":       {"npm start --script-shell sh", "npm start"},
		"npm ls":          {"npm ls --prefix /", "npm ls --depth=0"},
		"npm list":        {"npm list --globalconfig /tmp/x", "npm list --all"},
		"npm ll":          {"npm ll --cache /tmp", "npm ll"},
		"npm la":          {"npm la --editor vi", "npm la --json"},
		"npm config list": {"npm config list --userconfig /tmp/x", "npm config list --json"},
		"npm config ls":   {"npm config ls --editor x", "npm config ls -l"},
		"pnpm":            {"pnpm -r install", "pnpm --filter web build"},
		"pnpm run":        {"pnpm run --dir ../x build", "pnpm run build --watch"},
		"pnpm ls":         {"pnpm ls --global-dir /tmp", "pnpm ls --depth 0"},
		"pnpm list":       {"pnpm list --x", "pnpm list -r"},
		"pnpm why":        {"pnpm why --x react", "pnpm why react"},
		"yarn":            {"yarn --cwd /tmp test", "yarn --silent test"},
		"yarn run":        {"yarn run --cwd ../.. test", "yarn run test"},
		"yarn list":       {"yarn list --x", "yarn list --depth=0"},
		"yarn why":        {"yarn why --x a", "yarn why a"},
		"bun":             {"bun --silent add x", "bun --silent test"},
		"bun run":         {"bun run --eval x", "bun run build"},
		"npx":             {"npx -p evil tsc", "npx --yes tsc --noEmit -p x"},
		"bunx":            {"bunx --package evil tsc", "bunx tsc -p tsconfig.json"},
		"tsx":             {"tsx --import ./x.js app.ts", "tsx watch --tsconfig t.json app.ts -e x"},
		"node":            {"node -r ./hook.js app.js", "node --no-warnings app.js -e x"},
		"eslint":          {"eslint --rulesdir /tmp/rules .", "eslint --fix -f stylish ."},
		"prettier":        {"prettier --plugin=../../p.js --write .", "prettier --plugin=prettier-plugin-x --check ."},
		"python":          {"python -i x.py", "python -m pytest -q tests"},
		"python3":         {"python3 -m pytest -p evil", "python3 -B script.py -c x"},
		"pytest":          {"pytest -p evil", "pytest -p no:cacheprovider -x"},
		"py.test":         {"py.test --basetemp=/", "py.test --basetemp=tmp"},
		"pip list":        {"pip list --outdated", "pip list --format=freeze"},
		"pip freeze":      {"pip freeze --requirement r.txt", "pip freeze --all"},
		"pip show":        {"pip show --x a", "pip show -f a"},
		"pip3 list":       {"pip3 list -o", "pip3 list"},
		"pip3 freeze":     {"pip3 freeze -r r.txt", "pip3 freeze"},
		"pip3 show":       {"pip3 show --x a", "pip3 show a"},
		"uv run":          {"uv run --frozen python -c x", "uv run --frozen --python=3.10 pytest -x"},
		"uv pip list":     {"uv pip list --outdated", "uv pip list"},
		"uv pip freeze":   {"uv pip freeze -r x", "uv pip freeze"},
		"uv pip show":     {"uv pip show --x a", "uv pip show a"},
		"cargo":           {"cargo --config build.rustc-wrapper=/tmp/x build", "cargo -q build"},
		"dotnet":          {"dotnet --weird build", "dotnet --version"},
		"dotnet build":    {"dotnet build -p:RunCommand=/tmp/x", "dotnet build -c Release src/App.csproj"},
		"dotnet test":     {"dotnet test --results-directory /tmp/r", "dotnet test --filter Foo --no-build"},
		"cargo build":     {"cargo build --config x", "cargo build --release"},
		"cargo b":         {"cargo b -Z x", "cargo b"},
		"cargo check":     {"cargo check --target-dir /tmp/t", "cargo check --all-targets"},
		"cargo c":         {"cargo c --manifest-path ../x/Cargo.toml", "cargo c --manifest-path sub/Cargo.toml"},
		"cargo test":      {"cargo test --config x", "cargo test --workspace -- --nocapture"},
		"cargo t":         {"cargo t -Zx", "cargo t"},
		"cargo run":       {"cargo run --config x", "cargo run --release -- --config x"},
		"cargo r":         {"cargo r --x", "cargo r"},
		"cargo clippy":    {"cargo clippy --config x", "cargo clippy --all-targets -- -D warnings"},
		"cargo fmt":       {"cargo fmt --manifest-path /x", "cargo fmt --all -- --check"},
		"cargo tree":      {"cargo tree --config x", "cargo tree -d"},
		"cargo make":      {"cargo make --makefile /tmp/m.toml ci", "cargo make ci --makefile x"},
		"cargo-make":      {"cargo-make make --env X=1 ci", "cargo-make make ci"},
		"makers":          {"makers --cwd /tmp ci", "makers ci"},
		"gradle":          {"gradle -Dorg.gradle.java.home=/tmp/j build", "gradle -Dlog4j2.debug=true test -i"},
		"gradlew":         {"gradlew publish", "gradlew clean test --tests x"},
		"mvn":             {"mvn -s /tmp/s.xml test", "mvn -B -q -DskipTests -pl core clean verify"},
		"mvnw":            {"mvnw deploy", "mvnw -ntp test"},
		"./gradlew":       {"./gradlew -I /tmp/i.gradle build", "./gradlew build"},
		"./mvnw":          {"./mvnw -f /tmp/pom.xml test", "./mvnw test"},
		"make":            {"make SHELL=/tmp/sh all", "make CC=clang -j4 all"},
		"gmake":           {"gmake MAKEFLAGS=x", "gmake all"},
		"just":            {"just --justfile /tmp/j x", "just --list"},
		"task":            {"task --taskfile /tmp/t.yml x", "task --list"},
		"gofmt":           {"gofmt --w x.go", "gofmt -l -w x.go"},
		"hostname":        {"hostname evil", "hostname -f"},
		"date":            {"date 010100002030", "date +%s -u"},
	} {
		guardSamples[name] = s
	}
	// The runners the ecosystems added (cargo fmt is one now: it rewrites
	// files in place, which the default allows under the sandbox only).
	runnerCases = append(runnerCases, []struct {
		src  string
		runs bool
	}{
		{"tsc -p .", true}, {"tsc --version", false}, {"prettier --write .", true}, {"prettier --version", false},
		{"cargo-make make ci", true}, {"makers ci", true}, {"ruff check .", true}, {"ruff rule E501", false},
		{"./gradlew build", true}, {"./mvnw test", true}, {"./gradlew --version", true}, {"./mvnw -v", true},
		{"pytest --version", true}, {"py.test --help", true}, {"rustfmt a.rs", true}, {"rustfmt --version", false},
		{"gofmt -w a.go", true}, {"gofmt --w=true a.go", true}, {"gofmt -l a.go", false}, {"gofmt -l -- -w", false},
		{"mypy src", true}, {"black .", true}, {"black --version", false},
		{"vite build", true}, {"vite --version", false}, {"playwright test", true}, {"biome check .", true},
	}...)
}

// TestEcosystemOptions: the options each new entry knows, and that an
// option it does not know is reported (policy.unknown_option under the
// embedded default), for the entries with an options table.
func TestEcosystemOptions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		src     string
		unknown string // "" none
	}{
		{"tsc --noEmit -p tsconfig.json", ""},
		{"tsc --noEmit --plugin x", "--plugin"},
		{"eslint . --ext .ts,.tsx --max-warnings 0", ""},
		{"eslint --frob .", "--frob"},
		{"prettier --check 'src/**/*.ts'", ""},
		{"prettier --frob .", "--frob"},
		{"vitest run --coverage", ""},
		{"vitest --frob", "--frob"},
		{"jest --ci --coverage", ""},
		{"jest --frob", "--frob"},
		{"pytest -x -q --tb=short tests/", ""},
		{"pytest -n auto --cov=src --cov-report=term-missing", ""},
		{"pytest --frob", "--frob"},
		{"ruff check --fix .", ""},
		{"ruff format --check .", ""},
		{"ruff check --frob .", "--frob"},
		{"mypy --strict src", ""},
		{"mypy --frob src", "--frob"},
		{"black --check --diff .", ""},
		{"black --frob .", "--frob"},
		{"tox -e py311", ""},
		{"tox --frob", "--frob"},
		{"make -j4 test", ""},
		{"make --frob", "--frob"},
		{"rustfmt --check src/main.rs", ""},
		{"rustfmt --frob src/main.rs", "--frob"},
		{"uptime -p", ""},
		{"free -h", ""},
		{"free --frob", "--frob"},
		{"cal -3", ""},
		{"nproc --all", ""},
		{"hostname -I", ""},
		{"gem list --local", ""},
		{"gem list --remote", "--remote"},
		{"bun test --watch", ""},
		{"bun test --frob", "--frob"},
		{"vite build --mode staging", ""},
		{"vite build --frob", "--frob"},
		{"playwright test --project=chromium", ""},
		{"playwright test --frob", "--frob"},
		{"biome check --write .", ""},
		{"biome check --frob .", "--frob"},
	} {
		a := Analyze(tc.src, Options{Cwd: "/repo", Env: testEnv})
		var got []string
		for _, c := range a.Commands {
			for _, o := range c.UnknownOptions {
				got = append(got, o.Value)
			}
		}
		want := []string(nil)
		if tc.unknown != "" {
			want = []string{tc.unknown}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: unknown options %q, want %q", tc.src, got, want)
		}
	}
}

// TestEcosystemRunners: what runs the project's code (needs the sandbox
// under the embedded default) and what only prints or lists.
func TestEcosystemRunners(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		src  string
		runs bool
	}{
		{"npm test", true}, {"npm run build", true}, {"pnpm lint", true}, {"yarn test", true}, {"bun run dev", true},
		{"npx tsc --noEmit", true}, {"node scripts/build.js", true}, {"tsc --noEmit", true}, {"eslint .", true},
		{"prettier --check .", true}, {"vitest run", true}, {"jest", true},
		{"python -m pytest", true}, {"pytest", true}, {"uv run pytest", true}, {"ruff check .", true}, {"mypy src", true},
		{"black .", true}, {"tox", true},
		{"cargo test", true}, {"cargo clippy", true}, {"cargo fmt", true}, {"cargo make ci", true}, {"rustfmt src/main.rs", true},
		{"./gradlew build", true}, {"gradle test", true}, {"mvn test", true}, {"./mvnw verify", true},
		{"make", true}, {"just test", true}, {"task build", true}, {"./x.sh", true}, {"bin/x", true},
		{"gofmt -w x.go", true}, {"gofmt -l x.go", false},
		{"node --version", false}, {"npm --version", false}, {"npm ls", false}, {"npm config list", false},
		{"pip list", false}, {"pip freeze", false}, {"pip show x", false}, {"cargo tree", false}, {"cargo --version", false},
		{"python3 --version", false}, {"rustc --version", false}, {"uname -a", false}, {"uptime", false},
	} {
		a := Analyze(tc.src, Options{Cwd: "/repo", Env: testEnv})
		if len(a.Commands) == 0 {
			t.Fatalf("%s: no command", tc.src)
		}
		if got := ProjectCodeRun(&a.Commands[0]) != ""; got != tc.runs {
			t.Errorf("%s: runs project code %v, want %v", tc.src, got, tc.runs)
		}
	}
}

// TestFormatterWrites: a formatter that rewrites in place writes its
// operands (file references the ignore and protection rules check), and
// gofmt -w is no longer a guard hit (a policy that allows gofmt allows
// it).
func TestFormatterWrites(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		src   string
		write []string
	}{
		{"gofmt -w a.go", []string{"a.go"}},
		{"gofmt -l a.go", nil},
		{"black a.py", []string{"a.py"}},
		{"rustfmt src/main.rs", []string{"src/main.rs"}},
		{"prettier -w a.ts", []string{"a.ts"}},
	} {
		a := Analyze(tc.src, Options{Cwd: "/repo", Env: testEnv})
		var got []string
		for _, f := range a.Commands[0].Files {
			if f.Write {
				got = append(got, f.Path)
			}
		}
		if !slices.Equal(got, tc.write) {
			t.Errorf("%s: writes %q, want %q", tc.src, got, tc.write)
		}
		for _, h := range a.Commands[0].OptionHits {
			if strings.Contains(h.What, " -w") {
				t.Errorf("%s: -w is a guard hit: %+v", tc.src, h)
			}
		}
	}
}

// TestLeaves: the directory values a runner's guard lets pass.
func TestLeaves(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{
		"pkgs/a": false, "sub/Cargo.toml": false, ".": false, "a..b": false,
		"/tmp": true, "..": true, "../x": true, "a/../../b": true, "~/x": true, "$HOME": true, "": true,
	} {
		if got := leaves(v); got != want {
			t.Errorf("leaves(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestDestructive: what issue 30's default refuses, in the spellings real
// bash accepts, and what stays the gate's usual business. The project is
// /work/app, the home /home/u.
func TestDestructive(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		src  string
		want string // a word of the message; "" none
	}{
		{"rm -rf /", "the whole file system, outside the project /work/app"},
		{"rm -fr /", "whole file system"},
		{"rm -r -f ///", "whole file system"},
		{"rm --recursive --force /./", "whole file system"},
		{"/bin/rm -rf --no-preserve-root /", "whole file system"},
		{"rm -rf /*", "whole file system"},
		{"cd / && rm -rf *", "whole file system"},
		{"rm -rf ~", "the home directory /home/u, outside the project /work/app"},
		{"rm -rf ~/", "home directory"},
		{"rm -rf $HOME", "home directory"},
		{"rm -rf ..", "a directory that holds the project /work/app"},
		{"rm -rf ../..", "whole file system"}, // /work/app/../.. is /
		{"rm -rf ../app/..", "holds the project"},
		{"rm -rf ../other", "/work/other is outside the project /work/app"},
		{"rm -r /tmp/x", "outside the project /work/app"},
		{"rm -rf .", "the project /work/app itself"},
		{"sudo rm -rf /", "whole file system"},
		{"chmod -R 777 /", "changes the modes of / recursively"},
		{"chown -R u:u ~", "home directory"},
		{"chgrp -R g /etc", "outside the project"},
		{"dd if=/dev/zero of=/dev/sda bs=1M", "writes to the device /dev/sda"},
		{"echo x > /dev/nvme0n1", "device /dev/nvme0n1"},
		{"cat img > /dev/mmcblk0", "device"},
		{"mkfs.ext4 /dev/sdb1", "creates a file system"},
		{"mkswap /dev/sdb2", "creates a file system"},
		{"wipefs -a /dev/sdb", "creates a file system"},
		{"mkfs -t ext4 /dev/sdb1", "creates a file system"},
		{"/sbin/mkfs.xfs /dev/sdb1", "creates a file system"},
		{"mkfs.newfs /dev/sdb1", "creates a file system"}, // a type the table does not name: the prefix entry
		{"mke2fs /dev/sdb1", "creates a file system"},
		{"mkdosfs /dev/sdc1", "creates a file system"},
		{"mkntfs /dev/sdc1", "creates a file system"},
		{"mkfs.", "creates a file system"}, // as before the entries: the prefix alone too
		// Inside the project, or not recursive, or not a device: the
		// gate's usual answers.
		{"rm -rf build", ""},
		{"rm -rf ./*", ""},
		{"rm -rf node_modules dist", ""},
		{"rm /tmp/x", ""},
		{"chmod -R 755 scripts", ""},
		{"chmod 644 /tmp/x", ""},
		{"echo x > /dev/null", ""},
		{"dd if=x of=/dev/stdout", ""},
		{"rm -rf $X", ""},
	} {
		a := Analyze(tc.src, Options{Cwd: "/work/app", Env: testEnv})
		fs := Destructive(a.Commands, "/work/app", "/home/u")
		switch {
		case tc.want == "" && len(fs) > 0:
			t.Errorf("%s: %+v, want none", tc.src, fs)
		case tc.want != "" && (len(fs) == 0 || !strings.Contains(fs[0].Message, tc.want) || fs[0].Rule != "policy.destructive"):
			t.Errorf("%s: %+v, want a policy.destructive finding with %q", tc.src, fs, tc.want)
		}
		for _, f := range fs {
			if strings.Contains(f.Message, "project /,") || strings.HasSuffix(f.Message, "project /") {
				t.Errorf("%s: %q names / as the project", tc.src, f.Message)
			}
		}
	}
}

// TestDataLoss: the git commands whose loss the message names, and their
// safe neighbours.
func TestDataLoss(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]string{
		"git push --force origin main": "commits pushed there",
		"git push -f":                  "commits pushed there",
		"git push origin +main":        "commits pushed there",
		"git -C . push -uf origin x":   "commits pushed there",
		"git reset --hard HEAD~1":      "uncommitted change",
		"git clean -fdx":               "ignored ones included",
		"git clean -f -d":              "untracked files and directories",
		"git push --force-with-lease":  "",
		"git push origin main":         "",
		"git reset --soft HEAD~1":      "",
		"git clean -n":                 "",
		"git clean -dx --dry-run":      "",
		"git status":                   "",
	} {
		a := Analyze(src, Options{Cwd: "/work/app", Env: testEnv})
		fs := DataLoss(a.Commands)
		switch {
		case want == "" && len(fs) > 0:
			t.Errorf("%s: %+v, want none", src, fs)
		case want != "" && (len(fs) == 0 || !strings.Contains(fs[0].Message, want)):
			t.Errorf("%s: %+v, want a message with %q", src, fs, want)
		}
	}
}

// FuzzEcosystemGuards: the ecosystem entries' guards, runners and the
// destructive and data-loss checks never panic, whatever the words.
func FuzzEcosystemGuards(f *testing.F) {
	for _, src := range []string{"npm --prefix=/ test", "python3 -Wx -m pytest -p", "uv run -- python -m", "cargo --config",
		"mvn -D -pl", "gradle -D= publish", "hostname -F", "date -d", "make SHELL=", "node -", "tsx watch -", "rm -rf /*",
		"git push +", "git clean -fdx", "dd of=/dev/sda", "pnpm -r install", "npx -p", "gofmt --w="} {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		a := Analyze(src, Options{Cwd: "/work/app", Env: testEnv, MaxCommands: 16})
		for i := range a.Commands {
			if len(a.Commands[i].MatchArgv) > 0 { // as the analysis calls it
				optionHits(&a.Commands[i])
			}
			ProjectCodeRun(&a.Commands[i])
		}
		Destructive(a.Commands, "/work/app", "/home/u")
		DataLoss(a.Commands)
		words := strings.Fields(src)
		for _, name := range []string{"npm", "pnpm", "yarn", "bun", "npx", "node", "tsx", "python", "pytest", "uv", "cargo",
			"gradle", "mvn", "make", "just", "task", "gofmt", "hostname", "date", "eslint", "prettier"} {
			c := Command{MatchArgv: append([]string{name}, words...)}
			for _, w := range c.MatchArgv {
				c.Argv = append(c.Argv, Word{Value: w})
			}
			optionHits(&c)
		}
	})
}
