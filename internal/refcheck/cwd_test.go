package refcheck

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/parser"
)

// TestCwdBash is a differential test: in generated trees of directories
// and symbolic links, `cd X && cd Y && pwd -P && pwd` in real bash
// against the parser's cd steps replayed by Cwd. On main the gate read
// cd lexically: every case with a ".." after a link, or cd -P through a
// link, disagreed.
func TestCwdBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("bash is not installed")
		}
		t.Skip("bash is not installed")
	}
	rng := rand.New(rand.NewSource(26))
	cases, disagree, lexical, fails := 0, 0, 0, 0
	for tree := 0; tree < 12; tree++ {
		root := t.TempDir()
		root, _ = filepath.EvalSymlinks(root)
		names := makeTree(t, rng, root)
		for i := 0; i < 80; i++ {
			n := 1 + rng.Intn(2)
			var cds []string
			for j := 0; j < n; j++ {
				cds = append(cds, "cd "+operand(rng, names, root, root))
			}
			script := strings.Join(cds, " && ") + " && pwd -P && pwd"
			cmd := exec.Command(bash, "--norc", "--noprofile", "-c", script)
			cmd.Dir = root
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "PWD=" + root}
			out, err := cmd.Output()
			a := parser.Analyze(script, parser.Options{Cwd: root, Env: map[string]string{"PWD": root}})
			last := a.Commands[len(a.Commands)-1]
			cases++
			phys, pwd, rerr := Cwd(root, last.Chdirs)
			switch {
			case last.CwdDynamic:
				t.Errorf("%s: the parser made the directory dynamic", script)
			case err != nil:
				fails++
				if rerr == nil {
					// bash failed a cd: the command after it does not run, and
					// the gate must not claim a place for it either way.
					t.Errorf("%s: bash fails (%v), Cwd gives %s", script, err, phys)
				}
			default:
				lines := strings.Split(strings.TrimSpace(string(out)), "\n")
				if r, _ := filepath.EvalSymlinks(last.Cwd); len(lines) == 2 && lines[0] != r {
					lexical++ // where main's lexical reading went wrong
				}
				if rerr != nil || len(lines) != 2 || lines[0] != phys || lines[1] != pwd {
					disagree++
					t.Errorf("%s:\n bash: %q\n Cwd:  %q %q %v", script, lines, phys, pwd, rerr)
				}
			}
		}
	}
	t.Logf("%d cases: bash failed %d, the lexical reading was wrong in %d, Cwd disagreed in %d", cases, fails, lexical, disagree)
	if lexical < 20 {
		t.Errorf("only %d cases where the lexical reading is wrong: the generator does not reach the class", lexical)
	}
}

// makeTree makes directories d0…, some nested, and symbolic links l0…
// to directories (relative and absolute, some to places with ".."),
// and returns the names usable in an operand.
func makeTree(t *testing.T, rng *rand.Rand, root string) []string {
	dirs := []string{"d0", "d1", "d0/a", "d0/a/b", "d1/c", "d1/c/e"}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	names := []string{"d0", "d1", "a", "b", "c", "e", "x", ".", ".."}
	for i := 0; i < 8; i++ {
		target := dirs[rng.Intn(len(dirs))]
		var where string
		switch rng.Intn(3) {
		case 0:
			where = "" // in the root
		default:
			where = dirs[rng.Intn(len(dirs))] + "/"
		}
		name := fmt.Sprintf("l%d", i)
		var to string
		switch rng.Intn(3) {
		case 0:
			to = filepath.Join(root, target)
		case 1:
			rel, _ := filepath.Rel(filepath.Join(root, where), filepath.Join(root, target))
			to = rel
		default:
			to = filepath.Join(root, target) + "/../" + filepath.Base(target)
		}
		if err := os.Symlink(to, filepath.Join(root, where+name)); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	return names
}

// operand builds a cd operand: options, then a path of names and "..",
// mostly names that exist where the path so far leads (from dir).
func operand(rng *rand.Rand, names []string, root, dir string) string {
	var b strings.Builder
	switch rng.Intn(5) {
	case 0:
		b.WriteString("-P ")
	case 1:
		b.WriteString("-L ")
	case 2:
		b.WriteString("-L -P ")
	}
	cur := dir
	if rng.Intn(6) == 0 {
		b.WriteString(root + "/")
		cur = root
	} else if rng.Intn(4) == 0 {
		b.WriteString("./")
	}
	n := 1 + rng.Intn(4)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString("/")
		}
		var name string
		// Entries of the tree only: above it (after ".."s) are the
		// machine's own directories, such as another user's in /tmp that
		// this one may not enter (cd fails with EACCES, where Cwd, which
		// does not check search permission, succeeds): the test would
		// depend on the machine and on who runs it.
		var entries []os.DirEntry
		if cur == root || strings.HasPrefix(cur, root+"/") {
			entries, _ = os.ReadDir(cur)
		}
		switch r := rng.Intn(10); {
		case r < 6 && len(entries) > 0:
			name = entries[rng.Intn(len(entries))].Name()
		case r < 9:
			name = ".."
		default:
			name = names[rng.Intn(len(names))]
		}
		b.WriteString(name)
		if next, err := filepath.EvalSymlinks(cur + "/" + name); err == nil {
			cur = next
		}
	}
	return b.String()
}
