package exec

import (
	"encoding/json"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/exec/internal/seatbelt"
	"github.com/google/go-cmp/cmp"
)

func TestSeatbeltArgv(t *testing.T) {
	got := seatbeltArgv("/bin/bash", []string{"bash", "-c", "echo 'a b'"})
	want := []string{"/usr/bin/sandbox-exec", "-f", "/dev/fd/3", "/bin/bash", "-c", "echo 'a b'"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("seatbeltArgv mismatch (-want +got):\n%s", diff)
	}
	// The profile is never an argument.
	if slices.Contains(got, "-p") {
		t.Errorf("seatbeltArgv passes the profile as an argument: %q", got)
	}
}

// fakeStat answers os.Stat for sandbox-exec with a file of mode m, or err.
func fakeStat(t *testing.T, m fs.FileMode, err error) func(string) (fs.FileInfo, error) {
	dir := t.TempDir()
	f := filepath.Join(dir, "sandbox-exec")
	if m.IsDir() {
		if err := os.Mkdir(f, 0o755); err != nil {
			t.Fatal(err)
		}
	} else if err := os.WriteFile(f, nil, m); err != nil {
		t.Fatal(err)
	}
	return func(name string) (fs.FileInfo, error) {
		if name != sandboxExec {
			t.Errorf("stat(%q), want %s", name, sandboxExec)
		}
		if err != nil {
			return nil, err
		}
		return os.Stat(f)
	}
}

// TestSeatbeltCheck: every reason a Seatbelt sandbox cannot start is an
// error (which startProcess turns into a refusal when the sandbox is
// required): sandbox-exec missing or not executable, a bad path, the
// plan's error, and, when required, a machine the selftest has not
// verified. An optional sandbox on an unverified machine is applied.
func TestSeatbeltCheck(t *testing.T) {
	exe := fakeStat(t, 0o755, nil)
	verified := func() error { return nil }
	unverified := func() error { return errNotVerified }
	for _, c := range []struct {
		name     string
		sb       Sandbox
		stat     func(string) (fs.FileInfo, error)
		verified func() error
		want     string // "" for no error
	}{
		{"ok", Sandbox{Hide: []string{"/Users/me/.ssh"}}, exe, verified, ""},
		{"missing", Sandbox{}, fakeStat(t, 0o755, fs.ErrNotExist), verified, "/usr/bin/sandbox-exec is missing"},
		{"missing, optional", Sandbox{Optional: true}, fakeStat(t, 0o755, fs.ErrNotExist), verified, "is missing"},
		{"unreadable", Sandbox{}, fakeStat(t, 0o755, fs.ErrPermission), verified, "permission denied"},
		{"not executable", Sandbox{}, fakeStat(t, 0o644, nil), verified, "not an executable file"},
		{"a directory", Sandbox{}, fakeStat(t, fs.ModeDir|0o755, nil), verified, "not an executable file"},
		{"plan error", Sandbox{Err: errors.New("a hard link")}, exe, verified, "a hard link"},
		{"relative", Sandbox{Protect: []string{"proj/.git"}}, exe, verified, "not a clean absolute path"},
		{"unclean", Sandbox{Writable: []string{"/Users/me/../x"}}, exe, verified, "not a clean absolute path"},
		{"root", Sandbox{Hide: []string{"/"}}, exe, verified, "not a clean absolute path"},
		{"hide file, unclean", Sandbox{HideFiles: []HideFile{{Dir: "/Users/me/proj/../x", Name: ".gitignore"}}}, exe, verified, "not a clean absolute path"},
		{"hide file, relative", Sandbox{HideFiles: []HideFile{{Dir: "proj", Name: ".gitignore"}}}, exe, verified, "not a clean absolute path"},
		{"hide file", Sandbox{HideFiles: []HideFile{{Dir: "/Users/me/proj", Name: ".gitignore"}}}, exe, verified, ""},
		{"unverified, required", Sandbox{}, exe, unverified, "has not passed `cmdguard sandbox selftest`"},
		{"unverified, optional", Sandbox{Optional: true}, exe, unverified, ""},
	} {
		err := seatbeltCheck(&c.sb, c.stat, c.verified)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want nil", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

// TestSeatbeltPolicy: the profile comes from the same plan the Linux
// backend gets.
func TestSeatbeltPolicy(t *testing.T) {
	sb := &Sandbox{
		Hide:     []string{"/Users/me/proj/.env", "/Users/me/.ssh"},
		Protect:  []string{"/Users/me/proj/.git/config"},
		Absent:   []string{"/Users/me/proj/.git/commondir"},
		ReadOnly: true,
		Writable: []string{"/Users/me/proj"},
		Cow:      []string{"/Users/me/Library/Caches/go-build"},
	}
	const tmp = "/private/var/folders/x/T/cmdguard-run-1"
	got := seatbeltPolicy(sb, seatbeltHidden{}, tmp, 0)
	want := seatbelt.Policy{Hide: sb.Hide, Protect: sb.Protect, Absent: sb.Absent, Writable: sb.Writable,
		TempDir: tmp, CacheDirs: sb.Cow}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(seatbelt.Rule{})); diff != "" {
		t.Errorf("seatbeltPolicy mismatch (-want +got):\n%s", diff)
	}
	prof, err := seatbelt.Profile(got)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`(subpath "/Users/me/proj")`, `(subpath "` + tmp + `")`,
		`(subpath "/Users/me/Library/Caches/go-build")`, `/\.[Ee][Nn][Vv](/[^/]*)*$")`, "; Network: none."} {
		if !strings.Contains(prof, s) {
			t.Errorf("profile lacks %s", s)
		}
	}
	if strings.Contains(prof, "(allow file-write*)\n") {
		t.Error("a read-only sandbox's profile writes everywhere")
	}

	// Not read-only: writes everywhere but the denies; the proxy's port
	// only without the network.
	open := &Sandbox{Protect: sb.Protect}
	got = seatbeltPolicy(open, seatbeltHidden{}, tmp, 4321)
	if !got.WriteEverywhere || got.ProxyPort != 4321 || got.CacheDirs != nil {
		t.Errorf("seatbeltPolicy(not read-only, proxy) = %+v", got)
	}
	open.Network = true
	if got = seatbeltPolicy(open, seatbeltHidden{}, tmp, 4321); got.ProxyPort != 0 || !got.Network {
		t.Errorf("seatbeltPolicy(network) = %+v, want the network and no proxy port", got)
	}
}

func TestSeatbeltEnv(t *testing.T) {
	got := seatbeltEnv([]string{"PATH=/bin", "TMPDIR=/var/folders/x/T/", "HOME=/Users/me"}, "/private/tmp/run", 0)
	want := []string{"PATH=/bin", "HOME=/Users/me", "TMPDIR=/private/tmp/run/"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("seatbeltEnv mismatch (-want +got):\n%s", diff)
	}
	got = seatbeltEnv([]string{"PATH=/bin"}, "/private/tmp/run", 4321)
	if !slices.Contains(got, "HTTPS_PROXY=http://127.0.0.1:4321") || !slices.Contains(got, "TMPDIR=/private/tmp/run/") {
		t.Errorf("seatbeltEnv with a proxy = %q", got)
	}
}

func TestSeatbeltReport(t *testing.T) {
	hide := seatbeltHidden{negations: []HidePattern{{Source: ".gitignore:4", Pattern: "!keep.pem"}},
		skipped: []HidePattern{{Source: ".gitignore:5", Pattern: "x\\", Reason: "ends in an unescaped backslash"}}}
	got := seatbeltReport(&Sandbox{Hide: []string{"/a", "/b"}, Protect: []string{"/c"}}, hide, true)
	want := &SandboxReport{Applied: true, Layers: []string{"seatbelt", "proxy"}, Hidden: 2, Protected: 1,
		HideNegations: hide.negations, HideSkipped: hide.skipped}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("seatbeltReport mismatch (-want +got):\n%s", diff)
	}
}

// TestSeatbeltCleanup: the run's end stops the proxy and removes the
// temporary directory.
func TestSeatbeltCleanup(t *testing.T) {
	removed := false
	p := &stubProxy{conns: []Connection{{Host: "example.com", Port: 443}}}
	c := &seatbeltCleanup{proxy: p, remove: func() { removed = true }}
	if got := c.Stop(); !removed || !p.stopped || len(got) != 1 {
		t.Errorf("Stop() = %v; removed %v, proxy stopped %v", got, removed, p.stopped)
	}
	removed = false
	(&seatbeltCleanup{remove: func() { removed = true }}).Stop()
	if !removed {
		t.Error("Stop without a proxy did not remove the temporary directory")
	}
}

type stubProxy struct {
	conns   []Connection
	stopped bool
}

func (p *stubProxy) Start(net.Listener) error { return nil }
func (p *stubProxy) Stop() []Connection       { p.stopped = true; return p.conns }

// hideRegexes returns the compiled expressions of the profile's rule
// that denies reading hidden paths.
func hideRegexes(t *testing.T, prof string) []*seatbelt.Regex {
	t.Helper()
	const head = "(deny file-read* file-write* file-clone"
	i := strings.Index(prof, head)
	if i < 0 {
		t.Fatalf("profile has no %s rule:\n%s", head, prof)
	}
	// The rule's filters are its indented lines.
	lines := strings.Split(prof[i:], "\n")
	end := 1
	for end < len(lines) && strings.HasPrefix(lines[end], "  ") {
		end++
	}
	block := strings.Join(lines[:end], "\n")
	var out []*seatbelt.Regex
	for _, m := range regexp.MustCompile(`\(regex #"([^"]*)"\)`).FindAllStringSubmatch(block, -1) {
		re, err := seatbelt.CompileRegex(m[1])
		if err != nil {
			t.Fatalf("profile regex %q: %v", m[1], err)
		}
		out = append(out, re)
	}
	return out
}

// TestSeatbeltHidePatterns: the project's hide patterns (a .gitignore, a
// nested .cmdguardignore, the policy's own patterns) become deny rules
// of the profile, which hide a file created after the start that a
// pattern names; a negation that could give back a hidden path is not
// honoured and is listed with its source (the policy's file:line for
// the policy's patterns), and one in another ignore system, which
// cannot give back anything .gitignore hides, is not.
func TestSeatbeltHidePatterns(t *testing.T) {
	sb := &Sandbox{
		Hide: []string{"/proj/.env"}, // found at the start
		HideFiles: []HideFile{
			{Dir: "/proj", Name: ".gitignore", Set: ".gitignore", Content: []byte(".env\nsecrets/\n*.pem\n!keep.pem\n")},
			{Dir: "/proj", Name: ".cmdguardignore", Set: ".cmdguardignore", Content: []byte("!other.pem\nbad[\n")},
			{Dir: "/proj/sub", Name: "sub/.cmdguardignore", Set: ".cmdguardignore", Content: []byte("local.key\n/build/\n")},
			{Dir: "/proj", Name: "policy", Set: "(policy)", Content: []byte(".env.*\n!.env.example\n"),
				Sources: []string{"p.yaml:4", "p.yaml:5"}},
		},
		ReadOnly: true,
		Writable: []string{"/proj"},
	}
	hide, err := seatbeltHide(sb.HideFiles, seatbeltFoldCase)
	if err != nil {
		t.Fatal(err)
	}
	prof, err := seatbelt.Profile(seatbeltPolicy(sb, hide, "/private/tmp/run", 0))
	if err != nil {
		t.Fatal(err)
	}
	res := hideRegexes(t, prof)
	hidden := func(p string) bool {
		return slices.ContainsFunc(res, func(re *seatbelt.Regex) bool { return re.Match(p) })
	}
	for _, c := range []struct {
		path   string
		hidden bool
	}{
		{"/proj/.env", true},
		{"/proj/sub/.env", true},             // created later, at any depth
		{"/proj/new.pem", true},              // created later
		{"/proj/a/b/c.pem", true},            // at any depth
		{"/proj/keep.pem", true},             // the negation is not honoured: stricter
		{"/proj/.ENV", true},                 // the volume folds case
		{"/proj/Cert.PEM", true},             //
		{"/proj/secrets/db.txt", true},       // below a hidden directory
		{"/proj/sub/secrets/x/y", true},      //
		{"/proj/sub/local.key", true},        // the nested file's pattern
		{"/proj/sub/deeper/local.key", true}, //
		{"/proj/.env.local", true},           // the policy's pattern
		{"/proj/.env.example", true},         // its negation is not honoured
		{"/proj/main.go", false},
		{"/proj/sub/build/out.bin", true}, // an anchored pattern of the nested file
		{"/proj/build/out.bin", false},    // holds below sub only
		{"/proj/sub/x/build/out.bin", false},
		// A pattern that matches at any depth also holds in the other
		// writable places: a file moved there stays hidden.
		{"/proj/local.key", true},
		{"/proj/pem", false},
		{"/proj/x.pem.txt", false},
		{"/proj/.envrc", false},
		{"/elsewhere/new.pem", false}, // outside the project
	} {
		if got := hidden(c.path); got != c.hidden {
			t.Errorf("%s hidden by the profile: %v, want %v", c.path, got, c.hidden)
		}
	}
	wantNeg := []HidePattern{{Source: ".gitignore:4", Pattern: "!keep.pem"}, {Source: "p.yaml:5", Pattern: "!.env.example"}}
	if diff := cmp.Diff(wantNeg, hide.negations); diff != "" {
		t.Errorf("negations mismatch (-want +got):\n%s", diff)
	}
	wantSkip := []HidePattern{{Source: ".cmdguardignore:2", Pattern: "bad[", Reason: "unclosed '[' or unknown [:class:]"}}
	if diff := cmp.Diff(wantSkip, hide.skipped); diff != "" {
		t.Errorf("skipped mismatch (-want +got):\n%s", diff)
	}
	rep := seatbeltReport(sb, hide, false)
	if diff := cmp.Diff(wantNeg, rep.HideNegations); diff != "" {
		t.Errorf("report's hide_negations mismatch (-want +got):\n%s", diff)
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"hide_negations":[{"source":".gitignore:4","pattern":"!keep.pem"}`) {
		t.Errorf("report JSON lacks the negation: %s", b)
	}
}

// TestSeatbeltHideFailsClosed: hide patterns that cannot be translated
// are an error (startSandboxed refuses the command when the sandbox is
// required), never a profile without them.
func TestSeatbeltHideFailsClosed(t *testing.T) {
	for _, f := range []HideFile{
		{Dir: "proj", Name: ".gitignore", Content: []byte("*.pem\n")},
		{Dir: "", Name: ".gitignore", Content: []byte("*.pem\n")},
		{Dir: "/proj", Name: ".gitignore", Content: []byte("a\x00b\n")},
	} {
		if h, err := seatbeltHide([]HideFile{f}, true); err == nil {
			t.Errorf("seatbeltHide(%+v) = %d rules, no error", f, len(h.rules))
		}
	}
}
