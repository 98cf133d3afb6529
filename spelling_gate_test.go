package cmdguard_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cmdguard/cmdguard"
)

// TestDenySpellingsThroughGate: a deny rule holds through wrappers, path
// qualification and arguments the gate cannot see (xargs stdin, find
// -exec {}), judged by the whole gate.
func TestDenySpellingsThroughGate(t *testing.T) {
	t.Parallel()
	root := project(t, "version: 1\ndefault: ask\nallow: [echo, git, rm, find, xargs, ls, sudo, command, cd]\ndeny: [rm -rf, git add -A, git push --force, git apply --reject]\nask: [curl]\n")
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	checkVerdicts(t, g, []verdictCase{
		{"rm -fr build", cmdguard.Deny, ""},
		{"rm build -rf", cmdguard.Deny, ""},
		{"/bin/rm --recursive --force build", cmdguard.Deny, ""},
		{"sudo rm -Rf build", cmdguard.Deny, ""},
		{"command rm -r -f build", cmdguard.Deny, ""},
		{"echo -A | xargs git add", cmdguard.Deny, ""},
		{"find build -exec rm {} -rf ';'", cmdguard.Deny, ""},
		{"git -C . push origin main -f", cmdguard.Deny, ""},
		{"./curl http://127.0.0.1/", cmdguard.Ask, ""},
		{"rm build/out.txt", cmdguard.Allow, ""},
		{"git push origin main", cmdguard.Allow, ""},
		{"ls -la", cmdguard.Allow, ""},
		// An unknown file reference is not an unseen argument: git apply
		// names no option it cannot see.
		{"git apply x.patch", cmdguard.Ask, ""},
		// A glob that may match a name starting with - could be any
		// option (bash runs rm -rf … when the directory holds -rf); one
		// that starts with a literal cannot.
		{"rm build/*", cmdguard.Allow, ""},
		{"cd build && rm ./*", cmdguard.Allow, ""},
		{"cd build && rm *", cmdguard.Deny, "policy.deny"},
		{"cd build && rm [-a]*", cmdguard.Deny, "policy.deny"},
		{`cd build && for f in *; do rm "$f"; done`, cmdguard.Deny, "policy.deny"},
	})
}

// TestTransparentShells: bash/sh/dash/zsh -c with only options that
// change nothing the gate checks are rated by their inner commands.
func TestTransparentShells(t *testing.T) {
	t.Parallel()
	root := project(t, "version: 1\ndefault: ask\nallow: [git status, ls, wc]\ndeny: [rm -rf]\n")
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	checkVerdicts(t, g, []verdictCase{
		{"bash -lc 'git status'", cmdguard.Allow, ""},
		{"bash -c 'git status'", cmdguard.Allow, ""},
		{"sh -c ls", cmdguard.Allow, ""},
		{"zsh -c 'git status'", cmdguard.Allow, ""},
		{"bash -euxo pipefail -c 'ls | wc -l'", cmdguard.Allow, ""},
		{"bash --noprofile --norc -c ls", cmdguard.Allow, ""},
		{"bash -c 'git status; rm -fr x'", cmdguard.Deny, ""},
		{"bash -c 'git status; git push'", cmdguard.Ask, ""},
		{"bash -ic ls", cmdguard.Ask, ""},           // interactive: reads .bashrc, expands aliases
		{"bash --rcfile x -c ls", cmdguard.Ask, ""}, // runs x
		{"bash -O extglob -c ls", cmdguard.Ask, ""}, // changes what words mean
		{"bash -c ''; ls", cmdguard.Ask, ""},        // nothing inner to rate it by
		{"fish -c ls", cmdguard.Ask, ""},            // not bash syntax
	})
}

// TestListingIsNotReading: find, du and ls -R print names or sizes, not
// contents; git grep -- PATH reads PATH, not the whole tree.
func TestListingIsNotReading(t *testing.T) {
	t.Parallel()
	root := project(t, "version: 1\ndefault: ask\nallow: [find, du, ls, wc, git grep, cat]\nignore_files: [.cmdguardignore, .rooignore]\n")
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	checkVerdicts(t, g, []verdictCase{
		{"find . -name '*.go'", cmdguard.Allow, ""},
		{"find . -type f | wc -l", cmdguard.Allow, ""},
		{"find", cmdguard.Allow, ""},
		{"du -sh .", cmdguard.Allow, ""},
		{"ls -R", cmdguard.Allow, ""},
		{"git grep main -- src", cmdguard.Allow, ""},
		{"git grep main -- src docs", cmdguard.Allow, ""},
		{"git grep main", cmdguard.Ask, ""},            // the whole tree, which holds ignored files
		{"git grep main -- '*.env'", cmdguard.Ask, ""}, // git matches the glob across the tree
		{"git grep main -- secrets", cmdguard.Deny, ""},
		{"find . -exec cat {} +", cmdguard.Ask, ""},
		{"find . -delete", cmdguard.Ask, ""},
		{"find secrets -name x", cmdguard.Deny, ""}, // an ignored path named outright
	})
}

// TestGoOutputIsAFileRef: go build -o's target is a written file
// reference checked like any other, not a dangerous option by itself.
func TestGoOutputIsAFileRef(t *testing.T) {
	t.Parallel()
	root := project(t, "version: 1\ndefault: ask\nallow: [go build, go test]\nignore_files: [.cmdguardignore]\n")
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	checkVerdicts(t, g, []verdictCase{
		{"go build -o bin/app ./src", cmdguard.Allow, ""},
		{"go test -c -o x.test ./src", cmdguard.Allow, ""},
		{"go build -o .git/hooks/pre-commit ./src", cmdguard.Deny, "path.protected"},
		{"go build -o=.env ./src", cmdguard.Deny, "ignore.denied"},
		{"go build -o ../elsewhere ./src", cmdguard.Ask, "path.outside_root"},
		{"go build -toolexec x ./src", cmdguard.Ask, "policy.dangerous_option"},
	})
}

// TestDefaultPolicyReaders: the embedded default policy allows the
// read-only tools people expect and asks for what writes or runs.
func TestDefaultPolicyReaders(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for name, body := range map[string]string{"a.txt": "b\na\na\n", ".env": "X=1\n", "src/a.go": "package a\n", "src/b.go": "package a\n"} {
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
	checkVerdicts(t, g, []verdictCase{
		{"base64 a.txt", cmdguard.Allow, ""},
		{"base64 -d a.txt", cmdguard.Allow, ""},
		{"numfmt --to=iec 1000", cmdguard.Allow, ""},
		{"uniq -c a.txt", cmdguard.Allow, ""},
		{"sed -n 1,2p a.txt", cmdguard.Allow, ""},
		{"nl a.txt", cmdguard.Allow, ""},
		{"tac a.txt", cmdguard.Allow, ""},
		{"rev a.txt", cmdguard.Allow, ""},
		{"uniq a.txt out.txt", cmdguard.Ask, ""},
		{"sed -n -i 1p a.txt", cmdguard.Ask, ""},
		{"sed -n --in-place 1p a.txt", cmdguard.Ask, ""},
		{"sed -n '1w out' a.txt", cmdguard.Ask, ""},
		{"base64 .env", cmdguard.Deny, ""},
		{"git branch", cmdguard.Allow, ""},
		{"git branch -a", cmdguard.Allow, ""},
		{"git branch new-feature", cmdguard.Ask, ""},
		{"rg -z foo a.txt", cmdguard.Ask, ""},
		{"git update-ref refs/heads/x HEAD", cmdguard.Ask, ""},
		{"git tag v1", cmdguard.Ask, ""},
		// issue 11's loop: gofmt -l and -d list or print, -w rewrites.
		{`for f in src/*.go; do gofmt -l "$f"; done`, cmdguard.Allow, ""},
		{"gofmt -d -s src/a.go", cmdguard.Allow, ""},
		{"gofmt -l -w src/a.go", cmdguard.Ask, "policy.needs_sandbox"}, // issue 24: a write of the project, allowed under the sandbox
		{"gofmt -l -cpuprofile=p src/a.go", cmdguard.Ask, "policy.dangerous_option"},
		{"gofmt -l .env", cmdguard.Deny, ""},
	})
}

// TestStaticValues: a variable given a plain literal value by
// unconditional top-level assignments is known from then on, each
// assignment in turn; any other way the script could set it leaves it
// unknown. Loops over globs and arrays with literal or glob elements are
// checked as the glob: every name it matches.
func TestStaticValues(t *testing.T) {
	t.Parallel()
	root := project(t, "version: 1\ndefault: ask\nallow: [cat, true, bash -c, read, unset, cd, shopt, echo]\nignore_files: [.cmdguardignore]\n")
	if err := os.WriteFile(filepath.Join(root, "docs", "a b.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	checkVerdicts(t, g, []verdictCase{
		{"F=.env; cat $F", cmdguard.Deny, "ignore.denied"},
		{"F=.env\ncat \"$F\"", cmdguard.Deny, "ignore.denied"},
		{"F=src/main.go; cat $F", cmdguard.Allow, ""},
		{"F=src/main.go; cat ${F}", cmdguard.Allow, ""},
		{"F=src/main.go; for x in 1 2; do cat $F; done", cmdguard.Allow, ""},
		{"cat $F; F=src/main.go", cmdguard.Ask, "ignore.unknown_ref"},                 // before the assignment
		{"true && F=src/main.go; cat $F", cmdguard.Ask, "ignore.unknown_ref"},         // conditional
		{"F=src/main.go & cat $F", cmdguard.Ask, "ignore.unknown_ref"},                // background: a subshell
		{"F=src/main.go; F=.env; cat $F", cmdguard.Deny, "ignore.denied"},             // the later one
		{"F=.env; F=src/main.go; cat $F", cmdguard.Allow, ""},                         // the later one
		{"F=src/main.go; cat $F; F=.env", cmdguard.Allow, ""},                         // not yet
		{"F=src/main.go; true && F=.env; cat $F", cmdguard.Ask, "ignore.unknown_ref"}, // conditional
		{"F=src/main.go; F=$(echo x); cat $F", cmdguard.Deny, "parser.command_substitution"},
		{"F=src/main.go; F='a b'; cat $F", cmdguard.Ask, "ignore.unknown_ref"}, // forgotten
		{"F=src/main.go; read F; cat $F", cmdguard.Ask, "ignore.unknown_ref"},  // read
		{"F=src/main.go; unset F; cat $F", cmdguard.Ask, "ignore.unknown_ref"}, // unset
		{"F=src/main.go; F+=x; cat $F", cmdguard.Ask, "ignore.unknown_ref"},    // appended
		{"F=src/main.go; cat ${F:=.env}", cmdguard.Ask, "ignore.unknown_ref"},  // ${F:=…}
		{"F='a b'; cat $F", cmdguard.Ask, "ignore.unknown_ref"},                // splits
		{"F='*.pem'; cat $F", cmdguard.Ask, "ignore.unknown_ref"},              // globs
		{"F=src/main.go; bash -c 'F=.env; cat $F'", cmdguard.Ask, "ignore.unknown_ref"},
		{"RANDOM=src/main.go; cat $RANDOM", cmdguard.Ask, "ignore.unknown_ref"}, // bash's own
		// for-loop word lists of literal words: the body once per value.
		{"for f in src/main.go src/util.go; do cat $f; done", cmdguard.Allow, ""},
		{"for f in src/{main,util}.go; do cat \"$f\"; done", cmdguard.Allow, ""},
		{"for f in src/main.go .env; do cat $f; done", cmdguard.Deny, "ignore.denied"},
		{"for f in src/main.go; do f=.env; cat $f; done", cmdguard.Ask, "ignore.unknown_ref"},
		{"for f in src/main.go; do cat $f; done; cat $f", cmdguard.Ask, "ignore.unknown_ref"},
		// A glob: "$f" is one name it matches, checked as the glob.
		{`for f in src/*.go; do cat "$f"; done`, cmdguard.Allow, ""},
		{`for f in src/*.go; do cat "${f}" > "$f"; done`, cmdguard.Allow, ""},
		{`for f in keys/*; do cat "$f"; done`, cmdguard.Deny, "ignore.denied"},
		{`for f in src/* .env; do cat "$f"; done`, cmdguard.Deny, "ignore.denied"},
		// Unquoted, bash splits and globs each name again: every name
		// must be plain, and no command may have run before (it could
		// have created "a .env").
		{`for f in src/*.go; do cat $f; done`, cmdguard.Allow, ""},
		{`for f in docs/*; do cat $f; done`, cmdguard.Ask, "ignore.unknown_ref"},     // docs/a b.md
		{`for f in docs/*.txt; do cat $f; done`, cmdguard.Ask, "ignore.unknown_ref"}, // no match: the pattern
		{`cat src/main.go; for f in src/*.go; do cat $f; done`, cmdguard.Ask, "ignore.unknown_ref"},
		{`for f in src/*.go; do cat $f; done | cat`, cmdguard.Ask, "ignore.unknown_ref"},
		{`for f in src/*.go; do cat "$f.bak"; done`, cmdguard.Ask, "ignore.unknown_ref"}, // need not exist
		{`for f in src/*.go; do cd docs; cat "$f"; done`, cmdguard.Ask, "ignore.unknown_ref"},
		{`cd docs && for f in *; do cat "$f"; done`, cmdguard.Allow, ""},
		{`cd docs; for f in *; do cat "$f"; done`, cmdguard.Ask, "ignore.unknown_ref"}, // cd may fail
		{`shopt -s dotglob; for f in *; do cat "$f"; done`, cmdguard.Ask, "ignore.unknown_ref"},
		{`for f in src/*.go; do bash -c 'cat "$f"'; done`, cmdguard.Ask, "ignore.unknown_ref"}, // not exported
		{`select f in src/main.go; do cat "$f"; done`, cmdguard.Ask, "ignore.unknown_ref"},     // may be empty
		// Arrays with literal or glob elements.
		{`files=(src/main.go src/util.go); for f in "${files[@]}"; do cat "$f"; done`, cmdguard.Allow, ""},
		{`files=(src/main.go); files+=(src/util.go); cat "${files[@]}"`, cmdguard.Allow, ""},
		{`files=(src/main.go); files+=(.env); cat "${files[@]}"`, cmdguard.Deny, "ignore.denied"},
		{`files=(src/*.go); cat "${files[@]}"`, cmdguard.Allow, ""},
		{`files=(keys/*); cat "${files[@]}"`, cmdguard.Deny, "ignore.denied"},
		{`files=(src/main.go); cat ${files[@]}`, cmdguard.Allow, ""},
		{`files=(src/*.go); cat ${files[@]}`, cmdguard.Allow, ""},
		{`files=(docs/*); cat ${files[@]}`, cmdguard.Ask, "ignore.unknown_ref"},
		{`files=(); cat "${files[@]}" src/main.go`, cmdguard.Allow, ""},
		{`files=(a b); cat src/main.go >${#files[@]}`, cmdguard.Allow, ""},
		{`files=(src/main.go .env); cat "${files[0]}"`, cmdguard.Ask, "ignore.unknown_ref"}, // zsh counts from 1
		{`files=(src/main.go); cat "$files"`, cmdguard.Ask, "ignore.unknown_ref"},           // zsh: every element
		{`files=(src/main.go); files[1]=.env; cat "${files[@]}"`, cmdguard.Ask, "ignore.unknown_ref"},
		{`files=(src/main.go); unset files; cat "${files[@]}"`, cmdguard.Ask, "ignore.unknown_ref"},
		{`files=(src/main.go) && cat "${files[@]}"`, cmdguard.Ask, "ignore.unknown_ref"},
		{`files=(src/*.go); cd docs; cat "${files[@]}"`, cmdguard.Ask, "ignore.unknown_ref"},
		{`files=(src/main.go); bash -c 'cat "${files[@]}"'`, cmdguard.Ask, "ignore.unknown_ref"},
		// Arithmetic over literals runs nothing.
		{`cat src/main.go > $((10 * (5 + 3)))`, cmdguard.Allow, ""},
		{`cat src/main.go > $((010))`, cmdguard.Ask, "ignore.unknown_ref"}, // zsh reads ten, bash eight
		{`cat src/main.go > $((1 << 3))`, cmdguard.Ask, "ignore.unknown_ref"},
		{`files=(a b); cat src/main.go`, cmdguard.Allow, ""},
	})
}

// verdictCase is a command and the verdict the gate must give it, with
// rule among the reasons when it is set.
type verdictCase struct {
	cmd  string
	want cmdguard.Verdict
	rule string
}

// checkVerdicts checks each case through g.
func checkVerdicts(t *testing.T, g *cmdguard.Guard, cases []verdictCase) {
	t.Helper()
	for _, tc := range cases {
		d, err := g.Check(context.Background(), cmdguard.Request{Command: tc.cmd})
		if err != nil {
			t.Fatal(err)
		}
		found := tc.rule == ""
		for _, r := range d.Reasons {
			found = found || r.Rule == tc.rule
		}
		if d.Verdict != tc.want || !found {
			t.Errorf("%q: %v, want %v with %q (%v)", tc.cmd, d.Verdict, tc.want, tc.rule, d.Reasons)
		}
	}
}
