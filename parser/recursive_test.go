package parser

import "testing"

// Commands that read whole trees report their operands as recursive.
func TestRecursiveReaders(t *testing.T) {
	t.Parallel()
	tests := []refTest{
		{`grep -d recurse x`, []string{"grep: option recurse m", "grep: arg x m", "grep: arg . r"}},
		{`grep -drecurse x src`, []string{"grep: option recurse m", "grep: arg x m", "grep: arg src r"}},
		{`grep -d rec x src`, []string{"grep: option rec m", "grep: arg x m", "grep: arg src r"}},
		{`grep --directories=recurse x src`, []string{"grep: option recurse m", "grep: arg x m", "grep: arg src r"}},
		{`grep --dir=rec x src`, []string{"grep: option rec m", "grep: arg x m", "grep: arg src r"}},
		{`grep --directories recurse x src`, []string{"grep: option recurse m", "grep: arg x m", "grep: arg src r"}},
		{`grep -d skip x src`, []string{"grep: option skip m", "grep: arg x m", "grep: arg src "}},
		{`grep --recur x src`, []string{"grep: arg x m", "grep: arg src r"}},
		{`grep -inR x src`, []string{"grep: arg x m", "grep: arg src r"}},
		{`diff -rN . src`, []string{"diff: arg . r", "diff: arg src r"}},
		{`diff --recursive a b`, []string{"diff: arg a r", "diff: arg b r"}},
		{`diff -u a b`, []string{"diff: arg a r", "diff: arg b r"}}, // diff reads the files of a directory operand
		{`diff --from-file=.env a`, []string{"diff: option .env r", "diff: arg a r"}},
		{`git diff --no-index src .`, []string{"git: arg src r", "git: arg . r"}},
		{`git diff HEAD a.txt`, []string{"git: arg HEAD ", "git: arg a.txt "}},
		{`git grep --no-index -e SECRET -e DBPASS`, []string{"git: arg SECRET r", "git: arg DBPASS r", "git: arg . r"}},
		{`git grep SECRET -- '.e?v'`, []string{"git: arg SECRET m", "git: arg . rf"}},
		{`git grep --untracked -e SECRET`, []string{"git: arg SECRET r", "git: arg . r"}},
		{`sort --files0-from=l`, []string{"sort: option l ", "sort: unknown []"}},
		{`sort --files0 l`, []string{"sort: option l ", "sort: unknown []"}},
		{`wc --files0-from=l`, []string{"wc: option l ", "wc: unknown []"}},
		{`du --files0-from l`, []string{"du: option l ", "du: unknown []"}},
	}
	runRefTests(t, tests)
}

// Commands whose files are named inside another file or stdin.
func TestNamesInside(t *testing.T) {
	t.Parallel()
	tests := []refTest{
		{`tar -cf o.tar -T list`, []string{"tar: arg o.tar w", "tar: option list ", "tar: unknown []"}},
		{`tar -C /etc -cf o.tar passwd`, []string{"tar: option /etc ", "tar: arg o.tar w", "tar: arg /etc/passwd r"}},
		{`tar xf a.tar --directory=out x`, []string{"tar: arg a.tar ", "tar: option out ", "tar: arg out/x wr", "tar: unknown []"}},
		{`unzip a.zip`, []string{"unzip: arg a.zip ", "unzip: unknown []"}},
		{`unzip -l a.zip`, []string{"unzip: arg a.zip "}},
		{`tar --files-from=list -cf o.tar`, []string{"tar: option list ", "tar: arg o.tar w", "tar: unknown []"}},
		{`tar czf o.tgz src`, []string{"tar: arg o.tgz w", "tar: arg src r"}},
		{`rsync --files-from=list . dst`, []string{"rsync: option list ", "rsync: arg . ", "rsync: arg dst w", "rsync: unknown []"}},
		{`zip -@ o.zip`, []string{"zip: arg o.zip w", "zip: unknown []"}},
		{`patch -p1 < x.patch`, []string{"patch: redirect x.patch ", "patch: unknown []"}},
		{`git apply x.patch`, []string{"git: arg x.patch ", "git: unknown []"}},
		{`git apply --check x.patch`, []string{"git: arg x.patch "}},
		{`git am < m`, []string{"git: redirect m ", "git: unknown []"}},
	}
	runRefTests(t, tests)
}
