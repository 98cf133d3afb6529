package parser

import (
	"strings"
	"testing"
)

// TestScriptRisk: the cases the policy's script guards were tested with
// (they moved here with the scan), and whether the scan must find a risk.
func TestScriptRisk(t *testing.T) {
	t.Parallel()
	tests := []struct {
		argv string // split on white space; in a word \x00 is a space, \x01 a newline
		ask  bool
	}{
		// sed
		{"sed -n p src/a.txt", false},
		{"sed s/foo/bar/g src/a.txt", false},
		{"sed -e s/hello/world/ -e 10q a", false},
		{"sed -n /re/,$p a", false},
		{"sed -n 1,/x/{p;q} a", false},
		{"sed 1a\x00some\x00text\x00w\x00x a", false}, // text of a, not a w command
		{"sed y/abc/xyz/ a", false},
		{"sed -E s|a/b|c|2 a", false},
		{"sed 1!G;h;$!d a", false},
		{"sed -n 1e\x00touch\x00x src/a.txt", true},
		{"sed 1r\x00.env src/a.txt", true},
		{"sed -n 1w\x00.cmdguardignore src/a.txt", true},
		{"sed R\x00.env a", true},
		{"sed W\x00out a", true},
		{"sed e a", true},
		{"sed /x/e a", true},
		{"sed /x/!e a", true},
		{"sed 1~2w\x00out a", true},
		{"sed s/a/b/w\x00out a", true},
		{"sed s/a/b/gw\x00out a", true},
		{"sed s,a,b,e a", true},
		{"sed s/a/b/;w\x00x a", true},
		{"sed p;r\x00.env a", true},
		{"sed {w\x00x\x01} a", true},
		{"sed 1{\x01r\x00x\x01} a", true},
		{"sed s/a\\/w/b/ a", false},     // the w is inside the regex
		{"sed #c\\\x01w\x00x a", true},  // a backslash does not continue a comment
		{"sed 1a\\\x01w\x00x a", false}, // it continues the text of a
		{"sed -n -e p -e w\x00x a", true},
		{"sed -ne w\x00x a", true},
		{"sed -new\x00x a", true}, // -n, then -e with its value attached
		{"sed --expr=p .env", false},
		{"sed --expr=w\x00x a", true},
		{"sed --e w\x00x a", true},
		{"sed --expression w\x00x a", true},
		{"sed -f script a", true},
		{"sed --file=script a", true},
		{"sed -nf script a", true},
		{"sed s/a/b a", true},        // unterminated: sed fails, the scan asks
		{"sed -n a -e w\x00x", true}, // the -e makes "a" a file; w runs
		{"sed -l 5 w\x00x a", true},  // -l takes a value; the script is w x
		{"sed --debug 1e\x00x a", true},
		{"gsed 1e\x00x a", true},
		{"sed -i s/a/b/ f", false},
		// awk
		{"awk {print\x00$1} a", false},
		{"awk -F: {print\x00$1} /etc/passwd", false},
		{"awk -v x=1 NR==x a", false},
		{"awk BEGIN{system(\"touch\x00x\")}", true},
		{"awk BEGIN{while((getline\x00l\x00<\x00\".env\")>0)\x00print\x00l}", true},
		{"awk {print\x00>\x00\"out\"} a", true},
		{"awk {print\x00|\x00\"sh\"} a", true},
		{"awk $1>2 a", false},           // a comparison (gawk -D: Op_greater), not a redirection
		{"awk {print\x00$1>2} a", true}, // in print: writes the file 2
		{"awk BEGIN{ARGV[1]=\".env\";ARGC=2}{print}", true},
		{"awk -f prog.awk a", true},
		{"awk --file=prog.awk a", true},
		{"gawk -i inplace {print} a", true},
		{"gawk --include=x {print} a", true},
		{"gawk -l ext {print} a", true},
		{"gawk -e {print} -e BEGIN{system(\"x\")} a", true},
		{"gawk --source=BEGIN{system(\"x\")}", true},
		{"gawk -o out {print} a", true},
		{"gawk --pretty-print=out {print} a", true},
		{"gawk -E prog a", true},
		{"mawk -W exec prog a", true},
		{"nawk BEGIN{system(\"x\")}", true},
		{"awk -- BEGIN{system(\"x\")}", true},
		{"awk -vx=1 {print} a", false},
		{"awk -F, {print} a", false},
		{"awk @load\x00\"x\" a", true},
	}
	for _, tt := range tests {
		words := strings.Fields(tt.argv)
		for i, w := range words {
			words[i] = strings.NewReplacer("\x00", " ", "\x01", "\n").Replace(w)
		}
		if got := scriptRisk(words) > 0; got != tt.ask {
			t.Errorf("scriptRisk(%q) = %v, want %v", words, got, tt.ask)
		}
	}
}

// FuzzScriptRisk checks that the sed and awk scans never panic and return
// 0 or the index of a word after the program name.
func FuzzScriptRisk(f *testing.F) {
	f.Add("sed -n 1e\x00x a")
	f.Add("sed s/a/b/w\x00out a")
	f.Add("awk -F: {print} a")
	f.Fuzz(func(t *testing.T, line string) {
		argv := strings.Split(line, " ")
		for i := range argv {
			argv[i] = strings.ReplaceAll(argv[i], "\x00", " ")
		}
		for _, prog := range []string{"sed", "awk"} {
			argv[0] = prog
			if got := scriptRisk(argv); got < 0 || got >= len(argv) {
				t.Fatalf("scriptRisk(%q) = %d, out of range", argv, got)
			}
		}
	})
}
