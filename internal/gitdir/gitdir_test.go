package gitdir

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestPlaces: a work tree whose .git is a file naming a separate git
// directory, which names a common one in commondir, whose config moves
// the hooks, includes another file and sets core.ignorecase. Every place
// git reads is found, and those inside the root are protected.
func TestPlaces(t *testing.T) {
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, sep, common := filepath.Join(tmp, "work"), filepath.Join(tmp, "sep"), filepath.Join(tmp, "common")
	for name, body := range map[string]string{
		"work/.git":               "gitdir: ../sep\n",
		"work/sub/x":              "",
		"sep/commondir":           "../common\n",
		"common/config":           "[core]\n\thooksPath = myhooks ; moved\n\tignorecase = yes\n[include]\n\tpath = extra.cfg\n",
		"common/extra.cfg":        "[core]\n",
		"common/modules/m/HEAD":   "ref: refs/heads/main\n",
		"common/modules/m/config": "",
	} {
		p := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	places, gotCommon, ic := Places(filepath.Join(root, "sub"))
	if gotCommon != common || ic != "yes" {
		t.Errorf("Places: common %q, ignorecase %q; want %q, yes", gotCommon, ic, common)
	}
	for _, want := range []Place{
		{filepath.Join(root, ".git"), false},
		{filepath.Join(sep, "config"), false},
		{filepath.Join(sep, "commondir"), false},
		{filepath.Join(common, "config"), false},
		{filepath.Join(common, "hooks"), true},
		{filepath.Join(root, "myhooks"), true},
		{filepath.Join(common, "extra.cfg"), false},
		{filepath.Join(common, "modules/m/hooks"), true},
	} {
		if !slices.Contains(places, want) {
			t.Errorf("Places misses %+v; got %+v", want, places)
		}
	}
	prot, fold := Protected(root)
	if !slices.Contains(prot, ".git") || !slices.Contains(prot, "myhooks/") || !fold {
		t.Errorf("Protected = %q, %v; want .git and myhooks/ in it, and true", prot, fold)
	}
	for _, p := range prot {
		if filepath.IsAbs(p) || p == ".." || len(p) > 2 && p[:3] == "../" {
			t.Errorf("Protected holds %q, outside the root", p)
		}
	}
	if !FoldCase(root) {
		t.Error("FoldCase = false with core.ignorecase = yes")
	}
	if p, c, _ := Places(tmp); p != nil || c != "" {
		t.Errorf("Places outside a work tree = %v, %q; want none", p, c)
	}
}
