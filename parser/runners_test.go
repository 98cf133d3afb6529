package parser

import (
	"path"
	"slices"
	"strings"
	"testing"
)

// runnerCases are, per entry of runners, invocations that run the
// project's code and that do not. TestRunnersCovered checks every entry
// has a case.
var runnerCases = []struct {
	src  string
	runs bool
}{
	{"go test ./...", true}, {"go run .", true}, {"go generate ./...", true}, {"go vet ./...", true},
	{"go build ./...", true}, {"go install ./cmd/x", true}, {"go tool mytool", true}, {"go -C sub test", true},
	{"go list ./...", false}, {"go version", false}, {"go env GOPATH", false}, {"go doc fmt", false}, {"go", false},
	{"npm test", true}, {"npm run build", true}, {"npm exec x", true}, {"npm install", true}, {"npm --prefix x test", true},
	{"npm ls", false}, {"npm --version", false}, {"npm view x", false},
	{"pnpm lint", true}, {"pnpm list", false}, {"yarn build", true}, {"yarn", true}, {"yarn why x", false},
	{"bun run x", true}, {"bun --version", false}, {"npx jest", true}, {"pnpx x", true}, {"bunx x", true},
	{"node index.js", true}, {"node -e 'require(\"./x\")'", true}, {"node --version", false},
	{"deno run x.ts", true}, {"tsx x.ts", true}, {"ts-node x.ts", true}, {"jest", true}, {"vitest run", true},
	{"mocha", true}, {"eslint .", true}, {"eslint --version", false},
	{"make", true}, {"make test", true}, {"make --version", false}, {"gmake all", true}, {"cmake -S . -B b", true},
	{"ninja", true}, {"just test", true}, {"task build", true}, {"rake", true}, {"mvn test", true},
	{"gradle build", true}, {"ant", true}, {"sbt test", true}, {"bazel test //...", true},
	{"cargo test", true}, {"cargo build", true}, {"cargo check", true}, {"cargo run", true}, {"cargo fmt", true}, {"cargo --version", false},
	{"python x.py", true}, {"python -m pytest", true}, {"python3 -c 'import x'", true}, {"python3 --version", false},
	{"python2 x.py", true}, {"pytest", true}, {"py.test -q", true}, {"tox", true}, {"nox", true},
	{"uv run x", true}, {"uv --version", false}, {"uv lock", false}, {"poetry run pytest", true}, {"poetry show", false},
	{"pip install -e .", true}, {"pip list", false}, {"pip3 install .", true},
	{"ruby x.rb", true}, {"perl x.pl", true}, {"php x.php", true}, {"lua x.lua", true}, {"Rscript x.R", true},
	{"bundle exec rspec", true}, {"rspec", true}, {"dotnet test", true}, {"dotnet --version", false},
	{"swift test", true}, {"mix test", true},
	{"bash x.sh", true}, {"bash", true}, {"bash -e x.sh", true}, {"bash -c 'ls'", false}, {"bash -ec 'ls'", false}, {"bash --version", false},
	{"sh x.sh", true}, {"sh -c ls", false}, {"dash x", true}, {"zsh x", true}, {"ksh x", true}, {"fish x.fish", true},
	{"./x", true}, {"bin/tool", true}, {"/usr/bin/ls", false}, {"ls", false}, {"cat x.go", false},
}

func TestProjectCodeRun(t *testing.T) {
	t.Parallel()
	for _, tc := range runnerCases {
		a := Analyze(tc.src, Options{Cwd: "/p"})
		if len(a.Commands) == 0 {
			t.Fatalf("Analyze(%q): no command", tc.src)
		}
		got := ProjectCodeRun(&a.Commands[0])
		if (got != "") != tc.runs {
			t.Errorf("ProjectCodeRun(%q) = %q, want runs=%v", tc.src, got, tc.runs)
		}
	}
}

// TestRunnersCovered checks that every entry with a runner (project) has
// a case in runnerCases: an entry without a test does not land.
func TestRunnersCovered(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, tc := range runnerCases {
		name, _, _ := strings.Cut(tc.src, " ")
		seen[path.Base(name)] = true
	}
	n := 0
	for name, p := range progs() {
		r := p.project
		if r == nil {
			continue
		}
		n++
		if !seen[name] {
			t.Errorf("%s's runner has no case in runnerCases", name)
		}
		if r.what == "" {
			t.Errorf("%s's runner says not what it runs", name)
		}
	}
	if n < 70 { // the runners of the table before they moved into the entries
		t.Errorf("%d entries have a runner, want at least 70", n)
	}
}

func TestWriteThenRun(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		src  string
		want string // "" for no finding, else "run-pos write-pos"
	}{
		// && ; | and newlines.
		{"printf 'package x' > x_test.go && go test ./...", "1:35 1:22"},
		{"printf x > x_test.go; go test", "1:23 1:12"},
		{"printf x > x_test.go\ngo test", "2:1 1:12"},
		{"printf x | tee x_test.go | go test", "1:28 1:16"},
		{"printf x > x_test.go || go test", "1:25 1:12"},
		{"cat > Makefile <<'EOF'\nall:\n\tid\nEOF\nmake", "5:1 1:7"},
		{"cp /tmp/evil.go x_test.go && go test", "1:30 1:17"},
		{"mv a.txt x.py && python x.py", "1:18 1:4"},
		{"sed -i s/a/b/ x.py && python3 x.py", "1:23 1:15"},
		{"curl -o run.sh https://x && bash run.sh", "1:29 1:9"},
		{"git apply p.diff && npm test", "1:21 1:1"},
		{"tar xf a.tar && make", "1:17 1:1"},
		{"unzip a.zip && ./a.out", "1:16 1:1"},
		{"echo id > x.sh && chmod +x x.sh && ./x.sh", "1:36 1:11"},
		{"curl -sO https://x/Makefile && make", "1:32 1:1"},
		{"wget https://x/run.sh; bash run.sh", "1:24 1:1"},
		{"uniq in.txt x_test.go; go test", "1:24 1:13"}, // uniq IN OUT writes OUT: a written file reference at OUT
		{"npm install evil && npm test", "1:21 1:1"},
		// Loops: a write later in the body comes before the run of the
		// next round; also nested loops and the condition.
		{"for i in 1 2; do go test; printf x > x_test.go; done", "1:18 1:38"},
		{"while true; do make; echo x >> Makefile; done", "1:16 1:32"},
		{"until make; do echo x > Makefile; done", "1:7 1:25"},
		{"for i in 1 2; do for j in 3; do go test; done; echo > a.go; done", "1:33 1:55"},
		{"for ((i=0;i<2;i++)); do cargo test; echo > src/lib.rs; done", "1:25 1:44"},
		// Wrappers.
		{"bash -c 'printf x > x_test.go && go test'", "1:34 1:21"},
		{"printf x > x_test.go && env go test", "1:29 1:12"},
		{"printf x > x_test.go && timeout 60 go test", "1:36 1:12"},
		{"sh -c 'echo x > a.go' && go test", "1:26 1:17"},
		{"ls | xargs -I{} sh -c 'go test; cp {} b_test.go'", "1:24 1:39"},
		// find -exec is guarded (policy.dangerous_option): counted as a write.
		{"find . -name '*.go' -exec sh -c 'go vet; echo > a.go' \\;", "1:34 1:1"},
		{"find . -name '*.go' | xargs -n1 sh -c 'go vet; echo > a.go'", "1:40 1:55"},
		// Outside the project, but where the run runs or what it runs.
		{"cd /tmp/w && printf x > x_test.go && go test", "1:38 1:25"},
		{"printf id > /tmp/x.sh && bash /tmp/x.sh", "1:26 1:13"},
		// No false ask: a run that writes nothing first, a write after
		// the run, a write outside the project, a directory.
		{"go test ./...", ""},
		{"go vet ./... && go test ./...", ""},
		{"cat a.go && go test", ""},
		{"go test ./... > out.txt", ""},
		{"go test ./...; printf x > x_test.go", ""},
		// Alongside: a background job or an earlier pipeline element runs
		// while later commands write (measured with bash: both run the
		// test written after them).
		{"go test ./... & printf x > x_test.go; wait", "1:1 1:28"},
		{"go test ./... | printf x > x_test.go", "1:1 1:28"},
		{"go test ./... 2>&1 | tee test.log", "1:1 1:26"},
		{"go test ./... & wait; cat x", ""},
		{"make && echo done > /dev/null", ""},
		{"echo start > /tmp/log; go test ./...", ""},
		{"mkdir -p build && make", ""},
		{"for i in 1 2; do go test; done; printf x > x_test.go", ""},
		{"printf x > notes.txt && go list ./...", ""},
		{"printf x > a.go && bash -c 'ls'", ""},
	} {
		a := Analyze(tc.src, Options{Cwd: "/p"})
		fs := WriteThenRun(a.Commands, "/p")
		got := ""
		if len(fs) > 0 {
			f := fs[0]
			rest := f.Message[strings.Index(f.Message, " at ")+4:]
			wpos, _, _ := strings.Cut(rest, ": ")
			got = f.Pos.String() + " " + wpos
			if f.Rule != "policy.write_then_run" {
				t.Errorf("%q: rule %s", tc.src, f.Rule)
			}
		}
		if got != tc.want {
			t.Errorf("WriteThenRun(%q) = %q, want %q (findings %v, analysis findings %v)", tc.src, got, tc.want, fs, a.Findings)
		}
	}
}

// BenchmarkWriteThenRun is the chain rule on an analysed chain of ten
// commands, half of them runners, with one write at the end of a loop.
func BenchmarkWriteThenRun(b *testing.B) {
	a := Analyze("git status && go vet ./... && go test ./... | tail -5; for i in 1 2; do make; cat x; npm test; ls; echo > a.go; done", Options{Cwd: "/p"})
	b.ReportAllocs()
	for b.Loop() {
		if len(WriteThenRun(a.Commands, "/p")) != 4 {
			b.Fatal("want 4 findings: make and npm test in the loop, each before and after the write")
		}
	}
}

// TestGitWritesTree: each git subcommand that writes the work tree
// (program.writesTree, one list since issue 23: the chain rule's and
// linkPass's lists disagreed on init, sparse-checkout and bisect) is a
// write before a run, and changes the paths of the commands after it.
func TestGitWritesTree(t *testing.T) {
	t.Parallel()
	subs := gitEntry().writesTree
	if len(subs) == 0 {
		t.Fatal("git's entry has no writesTree")
	}
	for _, sub := range append(slices.Clone(subs), "-C /p "+subs[0]) {
		src := "git " + sub + " x && make"
		if fs := WriteThenRun(Analyze(src, Options{Cwd: "/p"}).Commands, "/p"); len(fs) == 0 {
			t.Errorf("%s: no write_then_run finding", src)
		}
		src = "git " + sub + " x; cat a"
		a := Analyze(src, Options{Cwd: "/p"})
		if c := a.Commands[len(a.Commands)-1]; len(c.Unknown) == 0 {
			t.Errorf("%s: cat a has no unknown reference after git %s", src, sub)
		}
	}
	for _, src := range []string{"git status && make", "git log; cat a"} {
		a := Analyze(src, Options{Cwd: "/p"})
		if fs := WriteThenRun(a.Commands, "/p"); len(fs) > 0 {
			t.Errorf("%s: %v", src, fs)
		}
		if c := a.Commands[len(a.Commands)-1]; len(c.Unknown) > 0 {
			t.Errorf("%s: %v", src, c.Unknown)
		}
	}
}
