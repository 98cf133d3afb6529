package parser

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// git configuration and subcommands that run commands or read files.
func TestGit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src      string
		commands []string // commandLines
		findings []string
		refs     []string
	}{
		{`git -c gpg.ssh.defaultKeyCommand='touch x' commit -S`, []string{"|git -c gpg.ssh.defaultKeyCommand=touch x commit -S"},
			[]string{"1:8 git.dangerous_config"}, nil},
		{`git -c gpg.x509.program=x commit`, []string{"|git -c gpg.x509.program=x commit"}, []string{"1:8 git.dangerous_config"}, nil},
		{`git -c foo.barCommand=x log`, []string{"|git -c foo.barCommand=x log"}, []string{"1:8 git.dangerous_config"}, nil},
		{`git -c filter.x.smudge=y checkout .`, []string{"|git -c filter.x.smudge=y checkout ."}, []string{"1:8 git.dangerous_config"}, nil},
		{`git -c init.templateDir=t init`, []string{"|git -c init.templateDir=t init"}, []string{"1:8 git.dangerous_config"}, nil},
		{`git -c trace2.normalTarget=t log`, []string{"|git -c trace2.normalTarget=t log"}, []string{"1:8 git.dangerous_config"}, nil},
		{`git -c blame.ignoreRevsFile=.env blame main.go`, []string{"|git -c blame.ignoreRevsFile=.env blame main.go"}, nil,
			[]string{"git: option .env ", "git: arg main.go "}},
		{`git config blame.ignoreRevsFile .env`, []string{"|git config blame.ignoreRevsFile .env"}, nil,
			[]string{"git: option .env ", "git: arg blame.ignoreRevsFile ", "git: arg .env "}},
		{`git config --rename-section foo core`, []string{"|git config --rename-section foo core"}, []string{"1:12 git.dangerous_config"}, nil},
		{`git config rename-section foo core`, []string{"|git config rename-section foo core"}, []string{"1:12 git.dangerous_config"}, nil},
		{`git config --ed`, []string{"|git config --ed"}, []string{"1:12 git.dangerous_config"}, nil},
		{`git config -le`, []string{"|git config -le"}, []string{"1:12 git.dangerous_config"}, nil},
		{`git config foo.fsmonitor x`, []string{"|git config foo.fsmonitor x"}, nil, []string{"git: arg foo.fsmonitor ", "git: arg x "}},
		{`git config -f .env --list`, []string{"|git config -f .env --list"}, nil, []string{"git: option .env w", "git: arg .env "}},
		{`git rebase -x 'touch p' --root`, []string{"|git rebase -x touch p --root", "git rebase -x|touch p"}, nil,
			[]string{"git: arg touch p ", "touch: arg p w", "touch: unknown []"}}, // rebase changed the tree first
		{`git rebase --exe='rm -rf .' main`, []string{"|git rebase --exe=rm -rf . main", "git rebase -x|rm -rf ."}, nil,
			[]string{"git: option rm -rf . ", "git: arg main ", "rm: arg . wr", "rm: unknown []"}},
		{`git rebase -xmake`, []string{"|git rebase -xmake", "git rebase -x|make"}, nil, nil},
		{`git bisect run make test`, []string{"|git bisect run make test", "git bisect run|make test"}, nil,
			[]string{"git: arg run ", "git: arg make ", "git: arg test ", "make: arg test ", "make: unknown []"}}, // bisect checks out other commits first
		{`git bisect run 'eval x'`, []string{"|git bisect run eval x", "git bisect run|eval x"}, []string{"1:17 parser.eval"},
			[]string{"git: arg run ", "git: arg eval x ", "eval: arg x r", "eval: unknown []"}},
		{`git submodule foreach --recursive 'touch x'`, []string{"|git submodule foreach --recursive touch x", "git submodule foreach|touch x"}, nil,
			[]string{"git: arg foreach ", "git: arg touch x ", "touch: arg x w", "touch: unknown []"}},
		{`git fetch --upload-pack='touch x' origin`, []string{"|git fetch --upload-pack=touch x origin"}, []string{"1:11 git.dangerous_config"}, []string{"git: option touch x ", "git: arg origin "}},
		{`git clone -u x repo`, []string{"|git clone -u x repo"}, []string{"1:11 git.dangerous_config"}, []string{"git: arg x ", "git: arg repo "}},
		{`git ls-remote --exec=x r`, []string{"|git ls-remote --exec=x r"}, []string{"1:15 git.dangerous_config"}, []string{"git: option x ", "git: arg r "}},
		{`git archive --remote=r --exec=x HEAD`, []string{"|git archive --remote=r --exec=x HEAD"}, []string{"1:24 git.dangerous_config"},
			[]string{"git: option r ", "git: option x ", "git: arg HEAD r"}},
		{`git push --receive-pack=x`, []string{"|git push --receive-pack=x"}, []string{"1:10 git.dangerous_config"}, []string{"git: option x "}},
		{`git clone --template=t repo`, []string{"|git clone --template=t repo"}, []string{"1:11 git.dangerous_config"}, []string{"git: option t ", "git: arg repo "}},
		{`git clone -c core.pager=x repo`, []string{"|git clone -c core.pager=x repo"}, []string{"1:11 git.dangerous_config"}, []string{"git: arg core.pager=x ", "git: arg repo "}},
		{`git grep -O x`, []string{"|git grep -O x"}, []string{"1:10 git.dangerous_config"}, nil},
		{`git grep --open=sh x`, []string{"|git grep --open=sh x"}, []string{"1:10 git.dangerous_config"}, nil},
		{`git filter-branch --tree-filter 'rm -rf x' HEAD`, []string{"|git filter-branch --tree-filter rm -rf x HEAD", "git filter-branch|rm -rf x"}, nil, nil},
		{`git difftool --ext='cat .env' HEAD`, []string{"|git difftool --ext=cat .env HEAD", "git difftool -x|cat .env"}, nil, nil},
		{`git fetch origin main`, []string{"|git fetch origin main"}, nil, []string{"git: arg origin ", "git: arg main "}},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			a := Analyze(tc.src, Options{Cwd: "/repo", Env: testEnv})
			if diff := cmp.Diff(tc.commands, commandLines(a)); diff != "" {
				t.Errorf("Analyze(%q) commands mismatch (-want +got):\n%s", tc.src, diff)
			}
			if diff := cmp.Diff(tc.findings, findings(a)); diff != "" {
				t.Errorf("Analyze(%q) findings mismatch (-want +got):\n%s", tc.src, diff)
			}
			if tc.refs != nil {
				if diff := cmp.Diff(tc.refs, refLines(a)); diff != "" {
					t.Errorf("Analyze(%q) file refs mismatch (-want +got):\n%s", tc.src, diff)
				}
			}
		})
	}
}
