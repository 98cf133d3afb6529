package parser

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Variables a program reads as a file are file references; those the
// analysis resolves itself become unknown once the script can assign them.
func TestUnknownStateRefs(t *testing.T) {
	t.Parallel()
	runRefTests(t, []refTest{
		{`GIT_GRAFT_FILE=.env git log`, []string{"git: env .env "}},
		{`MAGIC=a.mgc:.env file x`, []string{"file: env a.mgc ", "file: env .env ", "file: arg x "}},
		{`env HISTFILE=.git/hooks/pre-commit bash -i`, []string{"env: env .git/hooks/pre-commit w"}},
		{`export GIT_GRAFT_FILE=$X; git log`, []string{"export: env $X d"}},
		// $PWD and ~+ after the script may have changed PWD: unknown
		// everywhere (a loop repeats what came before).
		{`printf -v PWD %s secrets; cat $PWD/db.txt`, []string{"cat: arg $PWD/db.txt d"}},
		{`for PWD in secrets; do cat $PWD/db.txt; done`, []string{"cat: arg $PWD/db.txt d"}},
		{`read PWD <<< secrets; cat ~+/db.txt`, []string{"cat: arg ~+/db.txt d"}},
		{`declare PWD=secrets; cat $PWD/db.txt`, []string{"cat: arg $PWD/db.txt d"}},
		{`cat $PWD/db.txt; PWD=secrets`, []string{"cat: arg $PWD/db.txt d"}},
		{`unset PWD; cat $PWD/x`, []string{"cat: arg $PWD/x d"}},
		{`cat $PWD/db.txt`, []string{"cat: arg /repo/db.txt "}},
		// Shell options that change what globs match.
		{`cat ?env`, []string{"cat: arg ?env g"}},
		{`cat ?env; shopt -s dotglob`, []string{"cat: arg ?env gd"}},
		{`bash -O dotglob -c 'cat ?env'`, []string{"cat: arg ?env gd"}},
		{`bash -o noglob -c 'cat ?env'`, []string{"cat: arg ?env gd"}},
		{`set -f; cat ?env`, []string{"cat: arg ?env gd"}},
		{`set -euo pipefail; cat ?env`, []string{"cat: arg ?env g"}},
		// Links and moves earlier (or, in a loop, later) in the source.
		{`ln -s sub s2 && cat s2/private.txt`, []string{"ln: arg sub ", "ln: arg s2 w", "cat: arg s2/private.txt ", "cat: unknown []"}},
		{`ln -s sub s2 && cat other.txt`, []string{"ln: arg sub ", "ln: arg s2 w", "cat: arg other.txt "}},
		{`cat s2/x; ln -s sub s2`, []string{"cat: arg s2/x ", "cat: unknown []", "ln: arg sub ", "ln: arg s2 w"}},
		{`mv sub s3 && cat s3/../x`, []string{"mv: arg sub w", "mv: arg s3 w", "cat: arg s3/../x ", "cat: unknown []"}},
		{`cp -r a b && cat b/x`, []string{"cp: arg a r", "cp: arg b wr", "cat: arg b/x ", "cat: unknown []"}},
		{`cp a b && cat b`, []string{"cp: arg a ", "cp: arg b w", "cat: arg b "}},
		{`ln -s /etc e && cd e && cat passwd`, []string{"ln: arg /etc ", "ln: arg e w", "cat: arg passwd ", "cat: unknown []"}},
		{`rename s/a/b/ * && cat f`, []string{"rename: arg s/a/b/ r", "rename: arg * rg", "cat: arg f ", "cat: unknown []"}},
		{`git checkout x && cat f`, []string{"git: arg x ", "cat: arg f ", "cat: unknown []"}},
		{`ln -s a $X; cat f`, []string{"ln: arg a ", "ln: arg $X wd", "cat: arg f ", "cat: unknown []"}},
		// What each entry changes of later paths (program.changes): any
		// path (mounts, rsync, the renames), any path when it writes what
		// it cannot list (tar x, unzip, cpio, patch), its written operands
		// (link; cp with an option of role makesLinks).
		{`mount --bind /etc d; cat f`, []string{"mount: arg /etc r", "mount: arg d r", "cat: arg f ", "cat: unknown []"}},
		{`umount d; cat f`, []string{"umount: arg d r", "cat: arg f ", "cat: unknown []"}},
		{`bindfs /etc d; cat f`, []string{"bindfs: arg /etc r", "bindfs: arg d r", "cat: arg f ", "cat: unknown []"}},
		{`prename s/a/b/ a; cat f`, []string{"prename: arg s/a/b/ r", "prename: arg a r", "cat: arg f ", "cat: unknown []"}},
		{`file-rename s/a/b/ a; cat f`, []string{"file-rename: arg s/a/b/ r", "file-rename: arg a r", "cat: arg f ", "cat: unknown []"}},
		{`rsync a b; cat f`, []string{"rsync: arg a ", "rsync: arg b w", "cat: arg f ", "cat: unknown []"}},
		{`tar xf a.tar; cat f`, []string{"tar: arg a.tar ", "tar: unknown []", "cat: arg f ", "cat: unknown []"}},
		{`tar cf a.tar d; cat f`, []string{"tar: arg a.tar w", "tar: arg d r", "cat: arg f "}},
		{`link a b; cat b/x`, []string{"link: arg a ", "link: arg b w", "cat: arg b/x ", "cat: unknown []"}},
		{`cp -s a b; cat b/x`, []string{"cp: arg a ", "cp: arg b w", "cat: arg b/x ", "cat: unknown []"}},
		{`cp --pres a b; cat b/x`, []string{"cp: arg a ", "cp: arg b w", "cat: arg b/x ", "cat: unknown []"}},
		{`cp -f a b; cat b/x`, []string{"cp: arg a ", "cp: arg b w", "cat: arg b/x "}},
		// Names programs resolve themselves, outputs they name themselves.
		{`go doc secrets.Key`, []string{"go: unknown []"}},
		{`go list ./...`, []string{"go: arg . r"}},
		{`go doc`, []string{"go: arg . "}},
		{`cd .git/hooks && go build ../../x.go`, []string{"go: arg ../../x.go ", "go: arg . w", "go: arg x w"}},
		{`go build -o bin/x ./cmd/x`, []string{"go: option bin/x w", "go: arg ./cmd/x "}},
		{`split -n 2 big.txt out/part.`, []string{"split: arg big.txt ", "split: arg out w", "split: arg out/part. w"}},
		{`jq -n 'import "secrets/cfg" as $c; $c'`, []string{"jq: arg import \"secrets/cfg\" as $c; $c m", "jq: unknown []"}},
		{`git log -p -- ':(icase)SECRETS' ':!src'`, []string{"git: arg . rf"}},
		{`git cat-file --batch`, []string{"git: unknown []"}},
		{`diff -N src .`, []string{"diff: arg src r", "diff: arg . r"}},
		{`cat src .`, []string{"cat: arg src ", "cat: arg . "}},
		{`python3 tool`, []string{"python3: arg tool r"}},
		// python -m MODULE: a module's entry (module) reads the words
		// after it; py.test is no module python -m runs here.
		{`python3 -m ruff format a.py`, []string{"python3: arg a.py w"}},
		{`python -B -m black a.py`, []string{"python: arg a.py w"}},
		// Every flag python declares may come before -m (python3 --help;
		// -b -x -P -R -d change no module's reading): on main, -b and
		// -x hid black's and ruff format's writes.
		{`python3 -b -m black a.py`, []string{"python3: arg a.py w"}},
		{`python3 -x -P -m ruff format a.py`, []string{"python3: arg a.py w"}},
		{`python -m py.test a.py`, []string{"python: option py.test m", "python: arg a.py r"}},
		{`file -m .env:/dev/null a.txt`, []string{"file: option .env ", "file: arg a.txt "}},
		{`file -bm x.mgc --magic-file=y:z -- -a`, []string{"file: option x.mgc ", "file: option y ", "file: option z ", "file: arg -a "}},
		{`file -f list -e soft b`, []string{"file: option list ", "file: arg b ", "file: unknown []"}},
	})
}

func TestAssignFindings(t *testing.T) {
	t.Parallel()
	p := Pos{Line: 1, Col: 1}
	tests := []struct {
		name, value string
		dynamic     bool
		safe        []string
		rules       []string
		refs        int
	}{
		{name: "LANG", value: "C.UTF-8"},
		{name: "LC_ALL", value: "C"},
		{name: "CGO_ENABLED", value: "0"},
		{name: "GOOS", value: "linux"},
		{name: "LANG", value: "/tmp/x", rules: []string{"env.unknown"}},
		{name: "TERM", value: "x", dynamic: true, rules: []string{"env.unknown"}},
		{name: "MYAPP_MODE", value: "1", rules: []string{"env.unknown"}},
		{name: "MYAPP_MODE", value: "1", safe: []string{"MYAPP_*"}},
		{name: "FOO", value: "1", safe: []string{"FOO"}},
		{name: "PATH", value: "/x", safe: []string{"PATH"}, rules: []string{"env.code_injection"}},
		{name: "GIT_TEST_FSMONITOR", value: "x", rules: []string{"env.code_injection"}},
		{name: "CGO_LDFLAGS", value: "x", rules: []string{"env.code_injection"}},
		{name: "GIT_GRAFT_FILE", value: ".env", refs: 1},
		{name: "MAGIC", value: "a:b:/dev/null", refs: 2},
	}
	for _, tc := range tests {
		fs, refs := AssignFindings(tc.name, tc.value, tc.dynamic, p, Options{EnvSafe: tc.safe})
		var rules []string
		for _, f := range fs {
			rules = append(rules, f.Rule)
		}
		if diff := cmp.Diff(tc.rules, rules); diff != "" || len(refs) != tc.refs {
			t.Errorf("AssignFindings(%q, %q) = %v, %d refs; want %v, %d refs", tc.name, tc.value, rules, len(refs), tc.rules, tc.refs)
		}
	}
}
