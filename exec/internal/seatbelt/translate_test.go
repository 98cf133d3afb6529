package seatbelt

import (
	"slices"
	"strings"
	"testing"
)

// TestNegationsListed: a negation that could give back what an earlier
// pattern hides is listed (and its paths stay hidden); one that nothing
// before it hides is not.
func TestNegationsListed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		files []IgnoreFile
		want  []string // Sources of the listed negations
		// hidden: paths (relative to /p) that stay hidden though git
		// would not ignore them
		hidden []string
	}{
		{"after", []IgnoreFile{{Dir: "/p", Name: ".gitignore", Content: []byte("*.log\n!keep.log\n")}},
			[]string{".gitignore:2"}, []string{"keep.log", "a/keep.log"}},
		{"disjoint", []IgnoreFile{{Dir: "/p", Name: ".gitignore", Content: []byte("*.log\n!README.md\n/a/*.key\n!b/x.key\n")}},
			nil, nil},
		{"before", []IgnoreFile{{Dir: "/p", Name: ".gitignore", Content: []byte("!keep.log\n*.log\n")}},
			nil, []string{"keep.log"}},
		{"nested-deeper", []IgnoreFile{
			{Dir: "/p", Name: ".gitignore", Content: []byte("*.key\n")},
			{Dir: "/p/sub", Name: "sub/.gitignore", Content: []byte("!a.key\n")}},
			[]string{"sub/.gitignore:1"}, []string{"sub/a.key"}},
		{"nested-shallower", []IgnoreFile{
			{Dir: "/p", Name: ".gitignore", Content: []byte("!a.key\n")},
			{Dir: "/p/sub", Name: "sub/.gitignore", Content: []byte("*.key\n")}},
			nil, []string{"sub/a.key"}},
		{"sibling", []IgnoreFile{
			{Dir: "/p/x", Name: "x/.gitignore", Content: []byte("*.key\n")},
			{Dir: "/p/y", Name: "y/.gitignore", Content: []byte("!a.key\n")}},
			nil, nil},
		{"dir-then-inside", []IgnoreFile{{Dir: "/p", Name: ".gitignore", Content: []byte("secrets/\n!secrets/keep.txt\n")}},
			nil, []string{"secrets/keep.txt"}},
		{"contents-then-inside", []IgnoreFile{{Dir: "/p", Name: ".gitignore", Content: []byte("secrets/*\n!secrets/keep.txt\n")}},
			[]string{".gitignore:2"}, []string{"secrets/keep.txt"}},
		{"reinclude-dir", []IgnoreFile{{Dir: "/p", Name: ".gitignore", Content: []byte("*.d\n!keep.d/\n!keep.d/x\n")}},
			[]string{".gitignore:2"}, []string{"keep.d/x", "keep.d/y"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tr, err := Translate(c.files, TranslateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, n := range tr.Negations {
				got = append(got, n.Source)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("negations listed %q, want %q", got, c.want)
			}
			rules := compileRules(t, tr)
			for _, p := range c.hidden {
				if exact, _ := hidden(t, rules, "/p/"+p, false); !exact {
					t.Errorf("%s is not hidden, want it kept hidden", p)
				}
			}
		})
	}
}

func TestTranslateSkipsAndRefuses(t *testing.T) {
	t.Parallel()
	tr, err := Translate([]IgnoreFile{{Dir: "/p", Name: "h", Content: []byte("a\\\n[abc\nx[[:foo:]]\n\\Ax\n/\n!\nok\n")}},
		TranslateOptions{FoldCase: true})
	if err != nil {
		t.Fatal(err)
	}
	var skipped []string
	for _, s := range tr.Skipped {
		skipped = append(skipped, s.Source)
	}
	if want := []string{"h:1", "h:2", "h:3", "h:4", "h:5", "h:6"}; !slices.Equal(skipped, want) {
		t.Errorf("skipped %q, want %q", skipped, want)
	}
	if len(tr.Rules) != 1 || tr.Rules[0].Pattern != "ok" {
		t.Errorf("rules %+v, want only ok", tr.Rules)
	}
	for _, f := range [][]IgnoreFile{
		{{Dir: "rel", Name: "h", Content: []byte("x\n")}},
		{{Dir: "/p", Name: "h", Content: []byte("a\x00b\n")}},
	} {
		if _, err := Translate(f, TranslateOptions{}); err == nil {
			t.Errorf("Translate(%q) = nil error", f)
		}
	}
}

// TestWidened: bytes a profile cannot hold are written as classes that
// hold them and more, never as themselves.
func TestWidened(t *testing.T) {
	t.Parallel()
	tr, err := Translate([]IgnoreFile{{Dir: "/p/caf\xc3\xa9", Name: "h", Content: []byte("a\"b\nc\td\ne\\\\f\nplain\n[[:cntrl:]]x\n")}},
		TranslateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range tr.Rules {
		for _, s := range []string{r.SBPLSelf, r.SBPLUnder} {
			for i := 0; i < len(s); i++ {
				if sbplUnsafe.has(s[i]) && s[i] != '\\' {
					t.Errorf("%s: profile regex %q holds byte %#x", r.Pattern, s, s[i])
				}
			}
			if strings.Contains(s, `"`) {
				t.Errorf("%s: profile regex %q holds '\"'", r.Pattern, s)
			}
		}
		if !r.Widened {
			t.Errorf("%s: not widened, though its directory has bytes ≥ 0x80", r.Pattern)
		}
	}
	rules := compileRules(t, tr)
	for _, p := range []string{"a\"b", "c\td", "e\\f", "plain", "\x01x"} {
		exact, sb := hidden(t, rules, "/p/caf\xc3\xa9/"+p, false)
		if !exact || !sb {
			t.Errorf("%q: hidden exactly %v, in the profile %v; want both", p, exact, sb)
		}
	}
	// Widening takes in other unwritable bytes, nothing printable.
	if exact, sb := hidden(t, rules, "/p/caf\xc3\xa9/a\x01b", false); exact || !sb {
		t.Errorf("a\\x01b: exactly %v, in the profile %v; want false, true", exact, sb)
	}
	if _, sb := hidden(t, rules, "/p/caf\xc3\xa9/aXb", false); sb {
		t.Errorf("aXb hidden in the profile: widening took in a printable byte")
	}
}

func TestKernelPath(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"/tmp":                                "/private/tmp",
		"/tmp/x/../y":                         "/private/tmp/y",
		"/var/folders/ab":                     "/private/var/folders/ab",
		"/etc/hosts":                          "/private/etc/hosts",
		"/TMP/x":                              "/private/tmp/x",
		"/private/tmp/x":                      "/private/tmp/x",
		"/tmpx":                               "/tmpx",
		"/System/Volumes/Data/Users/me":       "/Users/me",
		"/System/Volumes/Data/private/tmp/x":  "/private/tmp/x",
		"/System/Volumes/Data/System/Library": "/System/Volumes/Data/System/Library",
		"/Users/me/":                          "/Users/me",
		"rel/x":                               "rel/x",
	} {
		if got := KernelPath(in); got != want {
			t.Errorf("KernelPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzTranslate: any ignore file translates without panicking, into
// expressions of the subset that Go's regexp accepts, and a profile.
func FuzzTranslate(f *testing.F) {
	f.Add([]byte("*.pem\n!keep.pem\nsecrets/\n/a/**/b\n[!a-c]x\n\\#x\n"), "/Users/me/p", true)
	f.Add([]byte("\xef\xbb\xbfa\r\n\"q\"\n\x01\n[[:cntrl:]]\n**\n"), "/tmp/x\xff", false)
	f.Fuzz(func(t *testing.T, content []byte, dir string, fold bool) {
		if len(content) > 512 || len(dir) > 64 {
			return
		}
		tr, err := Translate([]IgnoreFile{{Dir: dir, Name: "h", Content: content}}, TranslateOptions{FoldCase: fold})
		if err != nil {
			return
		}
		for _, r := range tr.Rules {
			for _, s := range []string{r.Self, r.Under, r.SBPLSelf, r.SBPLUnder} {
				mustCompile(t, s)
			}
		}
		for _, n := range tr.Negations {
			mustCompile(t, n.Self)
		}
		_, _ = Profile(Policy{HideRules: tr.Rules, Writable: []string{"/w"}, Hide: []string{dir}})
	})
}
