package seatbelt

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the profile goldens in testdata")

// goldenPolicy is a project with hide patterns (one negation), a hidden
// directory, protected and absent paths, writable places, and a socket.
func goldenPolicy(t *testing.T) Policy {
	t.Helper()
	tr, err := Translate([]IgnoreFile{
		{Dir: "/Users/me/proj", Name: ".cmdguard-hide", Content: []byte(
			"# secrets\n.env\n*.pem\n!public.pem\n/config/prod.yaml\nsecrets/\n**/.aws/credentials\nkeys/*/id_[a-z]*\n")},
		{Dir: "/Users/me/proj/deploy", Name: "deploy/.cmdguard-hide", Content: []byte("*.tfvars\n")},
	}, TranslateOptions{FoldCase: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Negations) != 1 || tr.Negations[0].Pattern != "!public.pem" {
		t.Fatalf("Negations = %+v, want !public.pem listed", tr.Negations)
	}
	return Policy{
		Hide:      []string{"/Users/me/.ssh", "/Users/me/.aws"},
		HideRules: tr.Rules,
		Protect:   []string{"/Users/me/proj/.git/hooks", "/Users/me/proj/.git/config", "/Users/me/proj/.cmdguard.yaml"},
		Absent:    []string{"/Users/me/proj/.git/commondir"},
		Writable:  []string{"/Users/me/proj"},
		TempDir:   "/var/folders/x1/abc/T/cmdguard-run-1",
		CacheDirs: []string{"/Users/me/Library/Caches/go-build"},
		ProxyPort: 8877,
		Socket:    "/tmp/cmdguard-501/run.sock",
	}
}

func TestProfileGolden(t *testing.T) {
	t.Parallel()
	base := goldenPolicy(t)
	network := base
	network.Network, network.ProxyPort = true, 0
	offline := base
	offline.ProxyPort, offline.Socket = 0, ""
	for _, c := range []struct {
		name string
		p    Policy
	}{{"proxy", base}, {"network", network}, {"offline", offline}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := Profile(c.p)
			if err != nil {
				t.Fatalf("Profile: %v", err)
			}
			file := filepath.Join("testdata", "profile-"+c.name+".sb")
			if *update {
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("Profile(%s) mismatch (-%s +got):\n%s", c.name, file, diff)
			}
		})
	}
}

func TestProfileRefuses(t *testing.T) {
	t.Parallel()
	for name, p := range map[string]Policy{
		"relative writable":   {Writable: []string{"proj"}},
		"relative hide":       {Hide: []string{"x/.env"}},
		"root hidden":         {Hide: []string{"/"}},
		"control in writable": {Writable: []string{"/Users/me/pro\nj"}},
		"bad utf-8 writable":  {Writable: []string{"/Users/me/\xff"}},
		"port":                {ProxyPort: 70000},
		"relative socket":     {Socket: "run.sock"},
		"control in socket":   {Socket: "/tmp/a\x01"},
		"foreign rule":        {HideRules: []Rule{{Source: "x:1"}}},
	} {
		if _, err := Profile(p); err == nil {
			t.Errorf("Profile(%s) = nil error, want it refused", name)
		}
	}
}

func TestProfileSpelling(t *testing.T) {
	t.Parallel()
	got, err := Profile(Policy{Writable: []string{`/Users/me/a "q" \b`, "/tmp/x", "/var/folders/y", "/etc/z",
		"/System/Volumes/Data/Users/me/p"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`(subpath "/Users/me/a \"q\" \\b")`,
		`(subpath "/private/tmp/x")`,
		`(subpath "/private/var/folders/y")`,
		`(subpath "/private/etc/z")`,
		`(subpath "/Users/me/p")`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("profile lacks %s:\n%s", want, got)
		}
	}
}
