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
