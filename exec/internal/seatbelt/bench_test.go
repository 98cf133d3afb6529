package seatbelt

import "testing"

// BenchmarkTranslateProfile measures the golden policy: its ignore files
// translated and the profile written (what a run does before it starts).
func BenchmarkTranslateProfile(b *testing.B) {
	files := []IgnoreFile{
		{Dir: "/Users/me/proj", Name: ".cmdguard-hide", Content: []byte(
			"# secrets\n.env\n*.pem\n!public.pem\n/config/prod.yaml\nsecrets/\n**/.aws/credentials\nkeys/*/id_[a-z]*\n")},
		{Dir: "/Users/me/proj/deploy", Name: "deploy/.cmdguard-hide", Content: []byte("*.tfvars\n")},
	}
	var size int
	for b.Loop() {
		tr, err := Translate(files, TranslateOptions{FoldCase: true})
		if err != nil {
			b.Fatal(err)
		}
		text, err := Profile(Policy{HideRules: tr.Rules, Hide: []string{"/Users/me/.ssh"},
			Protect: []string{"/Users/me/proj/.git/hooks"}, Writable: []string{"/Users/me/proj"},
			TempDir: "/var/folders/x1/abc/T/run", CacheDirs: []string{"/Users/me/Library/Caches/go-build"}, ProxyPort: 8877})
		if err != nil {
			b.Fatal(err)
		}
		size = len(text)
	}
	b.ReportMetric(float64(size), "profile-bytes")
}

// BenchmarkMatch measures the subset matcher on a folded hide rule.
func BenchmarkMatch(b *testing.B) {
	tr, err := Translate([]IgnoreFile{{Dir: "/Users/me/proj", Name: "h", Content: []byte("**/.aws/credentials\n")}},
		TranslateOptions{FoldCase: true})
	if err != nil {
		b.Fatal(err)
	}
	re, err := CompileRegex(tr.Rules[0].Self)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if !re.Match("/Users/me/proj/a/b/c/d/.aws/credentials") {
			b.Fatal("no match")
		}
	}
}
