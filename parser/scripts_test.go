package parser

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sed and awk programs can read and write files and run commands.
func TestScripts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src      string
		findings []string
		refs     []string
	}{
		{`sed -n '1e touch x' a`, []string{"1:8 parser.eval"}, nil},
		{`sed 's/a/b/e' a`, []string{"1:5 parser.eval"}, nil},
		{`sed -e 's|a|b|ge' a`, []string{"1:8 parser.eval"}, nil},
		{`sed '/x/{e date
}' a`, []string{"1:5 parser.eval"}, nil},
		{`sed '1r .env' a`, nil, []string{"sed: arg .env ", "sed: arg 1r .env m", "sed: arg a "}},
		{`sed -n '1w .cmdguardignore' a`, nil, []string{"sed: arg .cmdguardignore w", "sed: arg 1w .cmdguardignore m", "sed: arg a "}},
		{`sed 's/x/y/w out' a`, nil, []string{"sed: arg out w", "sed: arg s/x/y/w out m", "sed: arg a "}},
		{`sed --expr=p .env`, nil, []string{"sed: option p m", "sed: arg .env "}},
		{`sed -e '$!N;s/\n/ /;y/abc/xyz/;/^#/d;2q;a text' a`, nil, nil},
		{`sed -n '/re/{p;q}' a`, nil, nil},
		{`sed 's/e/E/g;s,x,e,' a`, nil, nil},
		{`awk 'BEGIN{system("touch x")}'`, []string{"1:5 parser.eval"}, nil},
		{`awk '{print | "sh"}' a`, []string{"1:5 parser.eval"}, nil},
		{`awk 'BEGIN{"date" | getline d}'`, []string{"1:5 parser.eval"}, nil},
		{`awk '@load "x"'`, []string{"1:5 parser.eval"}, nil},
		{`gawk -l ext 1`, []string{"1:6 parser.eval"}, nil},
		{`awk 'BEGIN{while((getline l < ".env")>0) print l}'`, nil,
			[]string{"awk: arg .env m", `awk: arg BEGIN{while((getline l < ".env")>0) print l} m`}},
		{`awk '{print > "out"}' a`, nil, []string{"awk: arg out m", `awk: arg {print > "out"} m`, "awk: arg a "}},
		{`awk -F, '$1 == "x" || $2 {print $3}' a`, nil, nil},
		{`awk '/foo|bar/ {print} $1 ~ /a|b/ {n++} END {print n/2}' a`, nil, nil},
		{`awk '{print $1/2 | "sh"}' a`, []string{"1:5 parser.eval"}, nil},
		{`sed -e :a -e '$!N;s/\n//;ta' -e '0~3d;/x/!d;s#a#b#;s/\//x/3;1i\' -e 'text' a`, nil, nil},
		{`sed -e 'head' a`, []string{"1:8 parser.eval"}, nil},
		{`sed -n '1,80p;/start/,/end/p;$a end' a`, nil, nil},
		{`sed -n '1,80p;$a' a`, []string{"1:8 parser.eval"}, nil}, // GNU sed: expected \ after a
		{`sed -E 's/(a|b)/x/;/^$/d;y/abc/xyz/;s/a/b/I' a`, nil, nil},
		{`sed 'k' a`, []string{"1:5 parser.eval"}, nil},
		{`awk --assign x=1 'BEGIN{system("id")}' a`, []string{"1:18 parser.eval"}, []string{"awk: option x=1 m", "awk: arg id m", `awk: arg BEGIN{system("id")} m`, "awk: arg a "}},
		{`mawk -W interactive 'BEGIN{system("id")}'`, []string{"1:21 parser.eval"}, nil},
		{`sed -i.bak p a`, nil, []string{"sed: arg p m", "sed: arg a w", "sed: arg a.bak w"}},
		{`sed -ni.ep 'e touch x' a`, []string{"1:12 parser.eval"}, nil},
		{`sed -i p a`, nil, []string{"sed: arg p m", "sed: arg a w"}},
		{`sed -n ':a;ta w .git/config' a`, nil, []string{"sed: arg .git/config w", "sed: arg :a;ta w .git/config m", "sed: arg a "}}, // the label is a
		{`sed -n 's/[/]/x/w out' a`, nil, []string{"sed: arg out w", "sed: arg s/[/]/x/w out m", "sed: arg a "}},                     // [/] is the regex
		{`sed -n '/[/]/e id' a`, []string{"1:8 parser.eval"}, nil},
		{`sed -f lib.sed -e 'b there' a`, nil, nil},                          // the label may be in lib.sed: the guard asks
		{`sed -e ':a' -e "$X" -e 'b a;s/x/y/' a`, nil, nil},                  // the dynamic script is the guard's
		{`sed -e 'b there' -e 's/x/y/' a`, []string{"1:8 parser.eval"}, nil}, // GNU sed: can't find label
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			a := Analyze(tc.src, Options{Cwd: "/repo", Env: testEnv})
			if diff := cmp.Diff(tc.findings, findings(a)); diff != "" {
				t.Errorf("Analyze(%q) findings mismatch (-want +got):\n%s", tc.src, diff)
			}
			if tc.refs != nil {
				if diff := cmp.Diff(tc.refs, refLines(a)); diff != "" {
					t.Errorf("Analyze(%q) file refs mismatch (-want +got):\n%s", tc.src, diff)
				}
			}
		})
	}
}
