package ignore_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/ignore"
	"github.com/google/go-cmp/cmp"
)

func TestResolve(t *testing.T) {
	t.Parallel()
	outside := tree(t, map[string]string{"passwd": "x"})
	root := tree(t, map[string]string{
		".cmdguardignore": ".env\nsecrets/\n",
		".env":            "K=v",
		"src/main.go":     "",
		"secrets/db.txt":  "",
		"secrets/sub/x":   "",
		"link-env":        "->.env",
		"linkdir":         "->secrets",
		"deeplink":        "->secrets/sub",
		"dangling":        "->secrets/new.txt",
		"up":              "->..",
		"abs-out":         "->" + outside,
		"loop1":           "->loop2",
		"loop2":           "->loop1",
	})
	parent := filepath.Dir(root)
	// A root given through a symlink.
	rootLink := filepath.Join(t.TempDir(), "rootlink")
	if err := os.Symlink(root, rootLink); err != nil {
		t.Fatal(err)
	}
	home := root + "/src"
	type in struct{ root, cwd, name string }
	tests := []struct {
		name string
		in   in
		want ignore.PathInfo
	}{
		{"plain", in{root, "", "src/main.go"}, ignore.PathInfo{
			Abs: root + "/src/main.go", Real: root + "/src/main.go", Rel: "src/main.go", RealRel: "src/main.go", Exists: true}},
		{"dotdot-inside", in{root, "src", "../.env"}, ignore.PathInfo{
			Abs: root + "/.env", Real: root + "/.env", Rel: ".env", RealRel: ".env", Exists: true}},
		{"dotdot-relative-cwd", in{root, "src", "./../src/../.env"}, ignore.PathInfo{
			Abs: root + "/.env", Real: root + "/.env", Rel: ".env", RealRel: ".env", Exists: true}},
		{"dotdot-leaves", in{root, "src", "../../x"}, ignore.PathInfo{
			Abs: parent + "/x", Real: parent + "/x", Outside: true, RealOutside: true}},
		{"root-itself", in{root, "src", ".."}, ignore.PathInfo{
			Abs: root, Real: root, Rel: ".", RealRel: ".", Exists: true, IsDir: true}},
		{"absolute-inside", in{root, "/", root + "/secrets/db.txt"}, ignore.PathInfo{
			Abs: root + "/secrets/db.txt", Real: root + "/secrets/db.txt", Rel: "secrets/db.txt", RealRel: "secrets/db.txt", Exists: true}},
		{"absolute-outside", in{root, "", outside + "/passwd"}, ignore.PathInfo{
			Abs: outside + "/passwd", Real: outside + "/passwd", Outside: true, RealOutside: true, Exists: true}},
		{"symlink-to-ignored-file", in{root, "", "link-env"}, ignore.PathInfo{
			Abs: root + "/link-env", Real: root + "/.env", Rel: "link-env", RealRel: ".env", Exists: true}},
		{"symlinked-dir", in{root, "", "linkdir/db.txt"}, ignore.PathInfo{
			Abs: root + "/linkdir/db.txt", Real: root + "/secrets/db.txt", Rel: "linkdir/db.txt", RealRel: "secrets/db.txt", Exists: true}},
		{"symlinked-dir-itself", in{root, "", "linkdir"}, ignore.PathInfo{
			Abs: root + "/linkdir", Real: root + "/secrets", Rel: "linkdir", RealRel: "secrets", Exists: true, IsDir: true}},
		// ".." after a symlink applies to the link's target, as the kernel does.
		{"dotdot-after-symlink", in{root, "", "deeplink/../db.txt"}, ignore.PathInfo{
			Abs: root + "/db.txt", Real: root + "/secrets/db.txt", Rel: "db.txt", RealRel: "secrets/db.txt", Exists: true}},
		{"not-yet-existing-dir", in{root, "", "newdir/sub/file.txt"}, ignore.PathInfo{
			Abs: root + "/newdir/sub/file.txt", Real: root + "/newdir/sub/file.txt", Rel: "newdir/sub/file.txt", RealRel: "newdir/sub/file.txt"}},
		{"not-yet-existing-under-symlink", in{root, "", "linkdir/new/x"}, ignore.PathInfo{
			Abs: root + "/linkdir/new/x", Real: root + "/secrets/new/x", Rel: "linkdir/new/x", RealRel: "secrets/new/x"}},
		{"under-a-file", in{root, "", "src/main.go/x"}, ignore.PathInfo{
			Abs: root + "/src/main.go/x", Real: root + "/src/main.go/x", Rel: "src/main.go/x", RealRel: "src/main.go/x"}},
		{"dangling-symlink", in{root, "", "dangling"}, ignore.PathInfo{
			Abs: root + "/dangling", Real: root + "/secrets/new.txt", Rel: "dangling", RealRel: "secrets/new.txt"}},
		{"symlink-leaves-root", in{root, "", "up/x"}, ignore.PathInfo{
			Abs: root + "/up/x", Real: parent + "/x", Rel: "up/x", RealOutside: true}},
		{"absolute-symlink-out", in{root, "", "abs-out/passwd"}, ignore.PathInfo{
			Abs: root + "/abs-out/passwd", Real: outside + "/passwd", Rel: "abs-out/passwd", RealOutside: true, Exists: true}},
		{"root-via-symlink", in{rootLink, "", ".env"}, ignore.PathInfo{
			Abs: rootLink + "/.env", Real: root + "/.env", Rel: ".env", RealRel: ".env", Exists: true}},
		{"root-via-symlink-real-cwd", in{rootLink, root + "/src", "main.go"}, ignore.PathInfo{
			Abs: root + "/src/main.go", Real: root + "/src/main.go", Rel: "src/main.go", RealRel: "src/main.go", Exists: true}},
		{"tilde", in{root, "", ignore.ExpandHome("~/main.go", home)}, ignore.PathInfo{
			Abs: root + "/src/main.go", Real: root + "/src/main.go", Rel: "src/main.go", RealRel: "src/main.go", Exists: true}},
		{"tilde-alone", in{root, "", ignore.ExpandHome("~", home)}, ignore.PathInfo{
			Abs: root + "/src", Real: root + "/src", Rel: "src", RealRel: "src", Exists: true, IsDir: true}},
		{"dollar-home", in{root, "", ignore.ExpandHome("$HOME/../.env", home)}, ignore.PathInfo{
			Abs: root + "/.env", Real: root + "/.env", Rel: ".env", RealRel: ".env", Exists: true}},
		{"braced-home", in{root, "", ignore.ExpandHome("${HOME}/main.go", home)}, ignore.PathInfo{
			Abs: root + "/src/main.go", Real: root + "/src/main.go", Rel: "src/main.go", RealRel: "src/main.go", Exists: true}},
		// Not expanded: a relative path named "~user" or "$HOMEDIR".
		{"tilde-user", in{root, "", ignore.ExpandHome("~user/x", home)}, ignore.PathInfo{
			Abs: root + "/~user/x", Real: root + "/~user/x", Rel: "~user/x", RealRel: "~user/x"}},
		{"dollar-homedir", in{root, "", ignore.ExpandHome("$HOMEDIR", home)}, ignore.PathInfo{
			Abs: root + "/$HOMEDIR", Real: root + "/$HOMEDIR", Rel: "$HOMEDIR", RealRel: "$HOMEDIR"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ignore.Resolve(tt.in.root, tt.in.cwd, tt.in.name)
			if err != nil {
				t.Fatalf("Resolve(%q, %q, %q): %v", tt.in.root, tt.in.cwd, tt.in.name, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Resolve(%q, %q, %q) mismatch (-want +got):\n%s", tt.in.root, tt.in.cwd, tt.in.name, diff)
			}
			// The method, with the root's real path from Load, agrees.
			m, err := ignore.Load(tt.in.root, ignore.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, err = m.Resolve(tt.in.cwd, tt.in.name)
			if err != nil {
				t.Fatalf("Matcher.Resolve(%q, %q): %v", tt.in.cwd, tt.in.name, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Matcher.Resolve(%q, %q) mismatch (-want +got):\n%s", tt.in.cwd, tt.in.name, diff)
			}
		})
	}

	for _, bad := range []struct{ root, name, want string }{
		{root, "loop1", "too many levels of symbolic links"},
		{root, "loop1/x", "too many levels of symbolic links"},
		{"relative", "x", "not absolute"},
	} {
		_, err := ignore.Resolve(bad.root, "", bad.name)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Resolve(%q, %q) error = %v, want %q", bad.root, bad.name, err, bad.want)
		}
	}
}

// TestMatchRef is the gate's use: a reference is ignored when its written
// path or its real path is.
func TestMatchRef(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{
		".cmdguardignore": ".env\nsecrets/\n",
		".env":            "",
		"secrets/db.txt":  "",
		"link-env":        "->.env",
		"linkdir":         "->secrets",
		"src/x":           "",
	})
	m, err := ignore.Load(root, ignore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{
		"link-env": true, "linkdir/db.txt": true, "linkdir/new.txt": true, "src/../.env": true,
		"secrets/not-yet/x": true, "src/x": false, "src/new/y": false, "src/../secrets": true,
		"../x": false, root + "/linkdir": true,
	} {
		info, r, err := m.MatchRef("", name)
		if err != nil {
			t.Fatal(err)
		}
		if r.Ignored != want {
			t.Errorf("MatchRef(%q) = %+v (%+v), want ignored %v", name, r, info, want)
		}
	}
	if _, _, err := m.MatchRef("", "loop"); err != nil {
		t.Errorf("MatchRef of a missing path: %v", err)
	}
}

func TestExpandHome(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"~": "/h", "~/a": "/h/a", "$HOME": "/h", "$HOME/a": "/h/a", "${HOME}/a": "/h/a", "${HOME}": "/h",
		"~user/a": "~user/a", "$HOMEX": "$HOMEX", "a/~": "a/~", "x$HOME": "x$HOME", "": "",
	} {
		if got := ignore.ExpandHome(in, "/h"); got != want {
			t.Errorf("ExpandHome(%q, /h) = %q, want %q", in, got, want)
		}
	}
	if got := ignore.ExpandHome("~/a", ""); got != "~/a" {
		t.Errorf("ExpandHome with no home = %q, want unchanged", got)
	}
}
