package parser

import "testing"

// Words that might be paths are Maybe references: the gate checks them
// against the ignore rules and protected paths only.
func TestMaybeRefs(t *testing.T) {
	t.Parallel()
	tests := []refTest{
		// the operand taken as a pattern, script, program or filter
		{`grep SECRET .env`, []string{"grep: arg SECRET m", "grep: arg .env "}},
		{`sed -n p .env`, []string{"sed: arg p m", "sed: arg .env "}},
		{`awk x .env`, []string{"awk: arg x m", "awk: arg .env "}},
		{`jq . .env`, []string{"jq: arg . m", "jq: arg .env "}},
		{`rg .env`, []string{"rg: arg .env m", "rg: arg . r"}},
		// values of short options: attached (every split of a cluster)
		// or separate
		{`file -m.env`, []string{"file: option .env "}}, // file -m is known: its value is a magic file, not a guess
		{`file -bm.env x`, []string{"file: option .env ", "file: arg x "}},
		{`git blame -S.env f`, []string{"git: option .env m", "git: arg f "}},
		{`sort -o.env -t, x`, []string{"sort: option .env w", "sort: option , m", "sort: arg x "}},
		{`grep -e .env -m5 a`, []string{"grep: option .env m", "grep: arg a "}},
		{`head -n 20 -c.env a`, []string{"head: option .env m", "head: arg a "}},
		// values of long options known not to be files
		{`grep --regexp=.env a`, []string{"grep: option .env m", "grep: arg a "}},
		{`grep --regexp .env a`, []string{"grep: option .env m", "grep: arg a "}},
		{`curl --user .env:x https://h`, []string{"curl: option .env:x m"}},
		// long options whose value is a file
		{`jq --from-file .env x`, []string{"jq: option .env ", "jq: arg x "}},
		{`jq --from-file=.env`, []string{"jq: option .env "}},
		{`awk --file .env x`, []string{"awk: option .env ", "awk: arg x "}},
		// date reads a file with -f/--file and stats one with -r
		{`date -f .env`, []string{"date: option .env "}},
		{`date --file=.env +%s`, []string{"date: option .env ", "date: arg +%s m"}},
		{`date -r .env`, []string{"date: option .env "}},
		{`date -d tomorrow`, []string{"date: option tomorrow m"}},
		{`hostname -F .env`, []string{"hostname: option .env "}},
		// plain options and commands that read nothing stay quiet
		{`ls -l a`, []string{"ls: arg a l"}},
		{`echo -n .env`, nil},
	}
	runRefTests(t, tests)
}
