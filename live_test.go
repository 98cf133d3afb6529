package cmdguard

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard/internal/live"
	"github.com/cmdguard/cmdguard/policy"
)

// TestLiveIgnoreFiles: an ignore file created, edited and deleted between
// two checks of one Guard changes the verdict each time (ignore's own
// tests cover the same after the racy window).
func TestLiveIgnoreFiles(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTestFile(t, root, ".cmdguard.yaml", "version: 1\ndefault: allow\n")
	writeTestFile(t, root, "sub/dir/secret.txt", "pw")
	g, err := OpenPolicy(filepath.Join(root, ".cmdguard.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		what string
		do   func()
		want Verdict
	}{
		{"no ignore file", func() {}, Allow},
		{"created", func() { writeTestFile(t, root, "sub/.rooignore", "secret.txt\n") }, Deny},
		{"edited, same size", func() { writeTestFile(t, root, "sub/.rooignore", "secret.txx\n") }, Allow},
		{"edited", func() { writeTestFile(t, root, "sub/.rooignore", "dir/\n") }, Deny},
		{"deleted", func() { os.Remove(filepath.Join(root, "sub/.rooignore")) }, Allow},
		{"created in the root", func() { writeTestFile(t, root, ".cmdguardignore", "*.txt\n") }, Deny},
	}
	for _, st := range steps {
		st.do()
		if got, why := verdictOf(t, g, "cat sub/dir/secret.txt"); got != st.want {
			t.Errorf("%s: cat sub/dir/secret.txt = %s (%s), want %s", st.what, got, why, st.want)
		}
	}
}

// TestLivePolicy: an edited policy applies to the next check; one that no
// longer loads makes checks deny with the load error until it is fixed;
// an edited Rego module applies too. With a short racy window, and
// pauses, unchanged stats are trusted; with the real one, files are
// compared by content.
func TestLivePolicy(t *testing.T) {
	t.Parallel()
	for _, window := range []time.Duration{0, 20 * time.Millisecond} {
		t.Run(fmt.Sprint(window), func(t *testing.T) {
			t.Parallel()
			testLivePolicy(t, window)
		})
	}
}

func testLivePolicy(t *testing.T, window time.Duration) {
	root := t.TempDir()
	path := filepath.Join(root, ".cmdguard.yaml")
	writeTestFile(t, root, ".cmdguard.yaml", "version: 1\nallow: [ls]\n")
	r, _ := realRoot(root)
	g, err := open(&source{live.Source{Root: r, Path: path, Racy: window}})
	if err != nil {
		t.Fatal(err)
	}
	pause := func() {
		if window > 0 {
			time.Sleep(window + 20*time.Millisecond)
		}
	}
	steps := []struct {
		what   string
		policy string // written to .cmdguard.yaml unless empty
		rego   string // written to p.rego unless empty
		cmd    string
		want   Verdict
		reason string // in the reasons
	}{
		{"start", "", "", "ls", Allow, "policy.allow"},
		{"edited", "version: 1\ndeny: [ls]\n", "", "ls", Deny, "policy.deny"},
		{"invalid", "version: 1\ndeny: [ls\n", "", "ls", Deny, "policy.invalid"},
		{"still invalid", "", "", "echo hi", Deny, ".cmdguard.yaml"},
		{"fixed", "version: 1\nallow: [ls, echo]\nrego: [p.rego]\n", "package cmdguard\n\ndeny contains \"no echo\" if { input.commands[0].argv[0] == \"echo\" }\n", "echo hi", Deny, "no echo"},
		{"rego edited", "", "package cmdguard\n\ndeny contains \"no ls\" if { input.commands[0].argv[0] == \"ls\" }\n", "echo hi", Allow, "policy.allow"},
		{"rego broken", "", "package cmdguard\n\ndeny contains if {\n", "echo hi", Deny, "policy.invalid"},
		{"rego fixed", "", "package cmdguard\n", "ls", Allow, "policy.allow"},
		{"deleted", "-", "", "ls", Deny, "policy.invalid"},
	}
	for _, st := range steps {
		pause()
		switch st.policy {
		case "":
		case "-":
			os.Remove(path)
		default:
			writeTestFile(t, root, ".cmdguard.yaml", st.policy)
		}
		if st.rego != "" {
			writeTestFile(t, root, "p.rego", st.rego)
		}
		pause()
		got, why := verdictOf(t, g, st.cmd)
		if got != st.want || !strings.Contains(why, st.reason) {
			t.Errorf("%s: %s = %s (%s), want %s with %q", st.what, st.cmd, got, why, st.want, st.reason)
		}
	}
}

// TestLiveDefaultPolicy: a Guard opened without a policy file takes up
// one created later in the root.
func TestLiveDefaultPolicy(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	g, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if got, why := verdictOf(t, g, "frobnicate"); got != Ask {
		t.Fatalf("default policy: frobnicate = %s (%s), want ask", got, why)
	}
	writeTestFile(t, root, ".cmdguard.yaml", "version: 1\nallow: [frobnicate]\n")
	if got, why := verdictOf(t, g, "frobnicate"); got != Allow {
		t.Errorf("policy created: frobnicate = %s (%s), want allow", got, why)
	}
}

// TestWalkLimit: a recursive reader over a subtree larger than the walk
// bound asks with the bound as the reason; a small one is answered, and
// a command naming no directory never walks.
func TestWalkLimit(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTestFile(t, root, ".cmdguardignore", "*.pem\n")
	for i := range 60 {
		writeTestFile(t, root, fmt.Sprintf("huge/d%d/f%d.go", i%7, i), "")
	}
	writeTestFile(t, root, "small/a.go", "")
	p, err := policy.Parse("p.yaml", []byte("version: 1\ndefault: allow\n"), root)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := realRoot(root)
	g, err := open(&source{live.Source{Root: r, Fixed: p, Max: 50}})
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"grep -r x huge", "tar cf /dev/null huge", "grep -r x ."} {
		d, err := g.Check(context.Background(), Request{Command: cmd})
		if err != nil {
			t.Fatal(err)
		}
		var found bool
		for _, r := range d.Reasons {
			if r.Rule == "ignore.walk_limit" && strings.Contains(r.Message, "more than 50 entries") {
				found = true
			}
		}
		if d.Verdict != Ask || !found {
			t.Errorf("%s = %s %+v; want ask with ignore.walk_limit naming the bound", cmd, d.Verdict, d.Reasons)
		}
	}
	for _, cmd := range []string{"grep -r x small", "cat huge/d1/f1.go", "git status"} {
		if got, why := verdictOf(t, g, cmd); got != Allow {
			t.Errorf("%s = %s (%s), want allow", cmd, got, why)
		}
	}
}

// TestLiveConcurrent: checks from several goroutines while ignore files
// and the policy change under them never allow a file that every version
// ignores (run with -race).
func TestLiveConcurrent(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTestFile(t, root, ".cmdguard.yaml", "version: 1\ndefault: allow\nignore: [secret.txt]\n")
	writeTestFile(t, root, "a/b/secret.txt", "pw")
	writeTestFile(t, root, "a/b/open.txt", "")
	g, err := OpenPolicy(filepath.Join(root, ".cmdguard.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 200 {
			writeTestFile(t, root, "a/.rooignore", fmt.Sprintf("open.txt\n# %d\n", i))
			if i%3 == 0 {
				os.Remove(filepath.Join(root, "a/.rooignore"))
			}
			if i%50 == 0 {
				writeTestFile(t, root, ".cmdguard.yaml", fmt.Sprintf("version: 1\ndefault: allow\nignore: [secret.txt]\n# %d\n", i))
			}
		}
	}()
	errs := make(chan string, 4)
	for range 4 {
		go func() {
			for {
				select {
				case <-done:
					errs <- ""
					return
				default:
				}
				d, _ := g.Check(context.Background(), Request{Command: "cat a/b/secret.txt a/b/open.txt && grep -r x a"})
				if d.Verdict == Allow {
					errs <- fmt.Sprintf("allowed: %+v", d.Reasons)
					return
				}
			}
		}()
	}
	for range 4 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}

// TestLiveRootIgnoreBroken: a policy edited while the root's ignore file
// is broken denies until the ignore file is fixed (and not until the
// policy changes again).
func TestLiveRootIgnoreBroken(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTestFile(t, root, ".cmdguard.yaml", "version: 1\nallow: [ls]\n")
	writeTestFile(t, root, ".cmdguardignore", ".env\n")
	g, err := OpenPolicy(filepath.Join(root, ".cmdguard.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, root, ".cmdguardignore", "bad[\n")
	writeTestFile(t, root, ".cmdguard.yaml", "version: 1\nallow: [ls, echo]\n")
	if got, why := verdictOf(t, g, "echo hi"); got != Deny || !strings.Contains(why, "bad[") {
		t.Errorf("broken root ignore file: echo hi = %s (%s), want deny naming it", got, why)
	}
	writeTestFile(t, root, ".cmdguardignore", ".env\n")
	if got, why := verdictOf(t, g, "echo hi"); got != Allow {
		t.Errorf("fixed root ignore file: echo hi = %s (%s), want allow", got, why)
	}
}
