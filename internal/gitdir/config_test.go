package gitdir

import (
	"bytes"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadConfigGit is a differential test of ReadConfig against
// `git config --file F --list -z` over hand-written tricky files and
// generated ones: where git reads a file, ReadConfig reads the same keys
// and values or refuses it (an error: the caller asks); it never reads
// other keys.
func TestReadConfigGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is not installed")
		}
		t.Skip("git is not installed")
	}
	corpus := []string{
		"[core]\n\tfsmonitor = x\n",
		"[core]fsmonitor=x\n",
		"[CORE]\nFsMonitor=\"a b\" # c\n",
		"[core]\nfsmonitor = a\\\nb\n",
		"[core]\npager = \"less\\t-R\" ; x\n",
		"[core.x]\npager = y\n",
		"[alias \"X\"]\nst = !sh -c 'id'\n",
		"[alias]\n\tst = \"!f() { id; }; f\"\n",
		"[core]\n  bare\n",
		"[core]\nfsmonitor=\n",
		"\ufeff[core]\nfsmonitor=x\n",
		"[core]\r\nfsmonitor = x\r\n",
		"[core] # c\nfsmonitor = x y  \n",
		"[filter \"a\\\"b\"]\nclean = c\n",
		"; top\n# top\n[include]\npath = other\n",
		"[core]\nfsmonitor = \"a\n",
		"[core]\nfsmonitor = a\\q\n",
		"fsmonitor = x\n",
		"[core\nfsmonitor = x\n",
		"[core]\n1x = y\n",
		"[core]\nfs_monitor = y\n",
		"[core \"\"]\nx = y\n",
		"[.core]\nx = y\n",
		"[core.]\nx = y\n",
		"[core]\nfsmonitor\t=\tx\n",
		"[core]\nfsmonitor = \"\" x\n",
		"[core]\nfsmonitor = x\\\n",
		"[a-b]\nc-d = e\n",
		"[core]\npager=a\"b\"c\n",
	}
	rng := rand.New(rand.NewSource(26))
	atoms := []string{"[core]", "[alias \"x\"]", "[a.b]", "fsmonitor", "pager", "=", " ", "\t", "\"", "\\", "\\\n", "\n", "#", ";", "x", "!sh", "]", "[", "\\\"", "\\n", "\r\n"}
	for i := 0; i < 400; i++ {
		var b strings.Builder
		b.WriteString("[core]\n")
		for j := rng.Intn(12); j >= 0; j-- {
			b.WriteString(atoms[rng.Intn(len(atoms))])
		}
		corpus = append(corpus, b.String())
	}
	dir := t.TempDir()
	both, refused := 0, 0
	for i, text := range corpus {
		f := filepath.Join(dir, "config")
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(git, "config", "--file", f, "--no-includes", "--list", "-z")
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1", "HOME=" + dir}
		out, gitErr := cmd.Output()
		es, err := ReadConfig(f)
		if gitErr != nil {
			continue // git refuses it too: nothing runs
		}
		if err != nil {
			refused++
			continue
		}
		both++
		var want []string
		for _, rec := range bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0}) {
			if len(rec) == 0 {
				continue
			}
			k, v, ok := bytes.Cut(rec, []byte{'\n'})
			if !ok {
				v = []byte("true")
			}
			want = append(want, string(k)+"="+string(v))
		}
		var got []string
		for _, e := range es {
			got = append(got, e.Key+"="+e.Value)
		}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Errorf("case %d %q:\n git:  %q\n ours: %q", i, text, want, got)
		}
	}
	t.Logf("%d files git reads: %d read the same, %d refused", both+refused, both, refused)
	if both < 50 {
		t.Errorf("only %d files read by both: the generator does not exercise the reader", both)
	}
}

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		key, value string
		want       KeyClass
	}{
		{"core.fsmonitor", "./x", Runs},
		{"core.fsmonitor", "true", Inert},
		{"core.pager", "less", Runs},
		{"core.hookspath", ".husky", Runs},
		{"alias.st", "status", Runs},
		{"filter.lfs.clean", "git-lfs clean -- %f", Runs},
		{"diff.foo.textconv", "cat", Runs},
		{"credential.https://x.helper", "store", Runs},
		{"gpg.ssh.program", "x", Runs},
		{"remote.origin.url", "ext::sh -c id", Runs},
		{"remote.origin.url", "https://github.com/x/y", Inert},
		{"url.ext::sh -c id.insteadof", "https://x", Runs},
		{"submodule.a.update", "!id", Runs},
		{"pager.log", "false", Inert},
		{"core.repositoryformatversion", "0", Inert},
		{"branch.main.merge", "refs/heads/main", Inert},
		{"core.newthing", "x", Unknown},
		{"frobnicate.x", "y", Unknown},
	} {
		if got := Classify(c.key, c.value); got != c.want {
			t.Errorf("Classify(%q, %q) = %d, want %d", c.key, c.value, got, c.want)
		}
	}
}
