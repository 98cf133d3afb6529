package parser

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// programExample is one example of an entry of the program table: a
// command and how the analysis reads it.
type programExample struct {
	cmd string
	// reading is what Analyze(cmd) finds, in order, space separated (see
	// exampleReading): each file reference as path[:w][:rm][:rec][:list]
	// [:maybe], "unknown" for a reference the gate cannot see, "hit:WHAT"
	// for a guarded option (spaces as _), "unknown-option:OPT",
	// "finding:RULE".
	reading string
	// setup, for a row judged against the real program
	// (TestProgramExamplesReal): the files made in an empty directory
	// before cmd runs there under strace, space separated, "d/" a
	// directory, "-" nothing, "@git" a git repository (git init; what git
	// does under .git/ is git's own store, not judged here). Empty: the
	// row is not run.
	setup string
	// unjudged: paths of the reading the real program need not touch,
	// each with its reason in a comment on the row (split's prefix).
	unjudged string
}

// programExamples names, for each entry of the program table (programs
// and subcommands, as entries() names them), at least one command and its
// reading. Each family's rows are beside its table: programs_F.go's in
// programs_F_examples_test.go. TestProgramExamples checks every row against Analyze;
// TestProgramExamplesReal runs the rows with a setup in a throwaway
// directory under strace and checks the reading against what the real
// program opened, wrote and removed; TestEveryProgramHasARow fails for an
// entry without a row.
var programExamples = mergeExamples(archivesExamples, buildExamples, builtinsExamples, coreutilsExamples,
	dotnetExamples, editorsExamples, gitExamples, goExamples, hostExamples, inspectExamples, jstsExamples,
	jvmExamples, multiplexersExamples, networkExamples, pythonExamples, rustExamples, shellsExamples, toolsExamples)

// mergeExamples joins the families' examples; an entry named by two
// families is a mistake of the files, not a choice.
func mergeExamples(families ...map[string][]programExample) map[string][]programExample {
	all := map[string][]programExample{}
	for _, fam := range families {
		for name, rows := range fam {
			if all[name] != nil {
				panic("parser: examples of " + name + " in two families")
			}
			all[name] = rows
		}
	}
	return all
}

// exampleReading is the reading of an analysis as programExample.reading
// writes it.
func exampleReading(a *Analysis) string {
	var r []string
	for _, c := range a.Commands {
		for _, f := range c.Files {
			s := f.Path
			for _, m := range []struct {
				on   bool
				mark string
			}{{f.Write, ":w"}, {f.Removed, ":rm"}, {f.Recursive, ":rec"}, {f.Listed, ":list"}, {f.Maybe, ":maybe"}} {
				if m.on {
					s += m.mark
				}
			}
			r = append(r, s)
		}
		for range c.Unknown {
			r = append(r, "unknown")
		}
		for _, h := range c.OptionHits {
			r = append(r, "hit:"+strings.ReplaceAll(h.What, " ", "_"))
		}
		for _, o := range c.UnknownOptions {
			r = append(r, "unknown-option:"+o.Value)
		}
	}
	for _, f := range a.Findings {
		r = append(r, "finding:"+f.Rule)
	}
	return strings.Join(r, " ")
}

// TestProgramExamples reads every row of programExamples with Analyze: the
// command names its entry, and the reading is the row's.
func TestProgramExamples(t *testing.T) {
	t.Parallel()
	for name, rows := range programExamples {
		for _, row := range rows {
			a := Analyze(row.cmd, Options{Cwd: "/repo", Env: testEnv})
			if !namesEntry(a, name) {
				t.Errorf("%s: the example %q runs no command of that entry", name, row.cmd)
			}
			if got := exampleReading(a); got != row.reading {
				t.Errorf("%s: Analyze(%q) reads %q, want %q", name, row.cmd, got, row.reading)
			}
		}
	}
}

// namesEntry reports whether a command of a is the entry name (the
// program and its subcommands, as entries() names them).
func namesEntry(a *Analysis, name string) bool {
	words := strings.Fields(name)
	for _, c := range a.Commands {
		if len(c.MatchArgv) < len(words) {
			continue
		}
		argv := c.MatchArgv[:len(words)]
		// A prefix entry (see prefixes) names the programs of its
		// family without an entry of their own: mkfs.* names mkfs.ext4.
		if pre, ok := strings.CutSuffix(words[0], "*"); ok && strings.HasPrefix(argv[0], pre) && progs()[argv[0]] == nil && entryOf(argv[0]) == progs()[words[0]] {
			argv = append([]string{words[0]}, argv[1:]...)
		}
		if slices.Equal(argv, words) {
			return true
		}
	}
	return false
}

// TestEveryProgramHasARow: every entry of the program table (subcommands
// included) has an example in programExamples, and the table names only
// entries that exist: no entry is added without its example.
func TestEveryProgramHasARow(t *testing.T) {
	t.Parallel()
	ents := entries()
	var missing []string
	for name := range ents {
		if len(programExamples[name]) == 0 {
			missing = append(missing, name)
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Errorf("%d entries of the program table have no example in programExamples: %q", len(missing), missing)
	}
	for name := range programExamples {
		if ents[name] == nil {
			t.Errorf("programExamples names %q, which is no entry of the program table", name)
		}
	}
	t.Logf("%d entries, %d with an example", len(ents), len(programExamples))
}

// TestProgramExamplesReal runs each row of programExamples with a setup
// in a throwaway directory under strace -f, and checks the reading
// against what the real program did: each file it wrote, created,
// renamed, changed the mode or owner of, or removed is read as written
// (:w), and as removed (:rm) when it only removed it; each file it read
// is named; each file the row reads as written was written or removed;
// each file the row reads was touched. Values read as :maybe are not
// judged. A file it made and removed again (shred -u's renames) is none
// of the project's.
func TestProgramExamplesReal(t *testing.T) {
	t.Parallel()
	needProgram(t, "strace")
	for name, rows := range programExamples {
		for _, row := range rows {
			if row.setup == "" {
				continue
			}
			t.Run(name+"/"+row.cmd, func(t *testing.T) {
				t.Parallel()
				needProgram(t, strings.Fields(name)[0])
				judgeReal(t, row)
			})
		}
	}
}

// realOp is what a program did to a path: read, wrote, removed, or only
// looked (stat, listed).
type realOp struct{ read, wrote, removed, looked bool }

var (
	straceCall = regexp.MustCompile(`^\d+ +(\w+)\((.*)\) += (-?\d+)`)
	straceArg  = regexp.MustCompile(`(?:(\d+|AT_FDCWD)<([^>]*)>, )?"((?:[^"\\]|\\.)*)"`)
)

func judgeReal(t *testing.T, row programExample) {
	dir := t.TempDir()
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	made := map[string]bool{}
	repo := false
	for _, f := range strings.Fields(row.setup) {
		if f == "@git" {
			repo = true
			c := exec.Command("git", "init", "-q", ".")
			c.Dir = dir
			if out, err := c.CombinedOutput(); err != nil {
				t.Fatalf("git init: %v\n%s", err, out)
			}
			continue
		}
		if f == "-" {
			continue
		}
		p := filepath.Join(dir, f)
		if strings.HasSuffix(f, "/") {
			err = os.MkdirAll(p, 0o755)
		} else {
			err = os.WriteFile(p, []byte("b 2\na 1\n"), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		made[path.Clean(f)] = true
	}
	trace := filepath.Join(t.TempDir(), "trace")
	c := exec.Command("strace", "-f", "-qq", "-y", "-e", "trace=%file", "-o", trace, "sh", "-c", row.cmd)
	c.Dir = dir
	if out, err := c.CombinedOutput(); err != nil {
		if _, exited := err.(*exec.ExitError); !exited {
			t.Fatalf("sh -c %q under strace: %v\n%s", row.cmd, err, out)
		}
		t.Logf("sh -c %q: %v\n%s", row.cmd, err, out) // cmp, diff, false: what it touched still counts
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]*realOp{}
	op := func(p string) *realOp {
		if ops[p] == nil {
			ops[p] = &realOp{}
		}
		return ops[p]
	}
	for _, l := range strings.Split(string(b), "\n") {
		m := straceCall.FindStringSubmatch(l)
		if m == nil || m[1] == "execve" {
			continue
		}
		call, args, ok := m[1], m[2], !strings.HasPrefix(m[3], "-")
		var paths []string
		for _, a := range straceArg.FindAllStringSubmatch(args, -1) {
			p := a[3]
			if p == "" {
				continue // an fd's own file (AT_EMPTY_PATH)
			}
			if !strings.HasPrefix(p, "/") && a[2] != "" {
				p = a[2] + "/" + p
			} else if !strings.HasPrefix(p, "/") {
				p = dir + "/" + p
			}
			p = path.Clean(p)
			rel, in := strings.CutPrefix(p, dir+"/")
			if p == dir {
				rel, in = ".", true
			}
			if !in || repo && (rel == ".git" || strings.HasPrefix(rel, ".git/")) {
				paths = append(paths, "") // outside the directory (the loader, locales), or git's store
				continue
			}
			paths = append(paths, rel)
		}
		if len(paths) == 0 || paths[0] == "" && len(paths) == 1 {
			continue
		}
		switch call {
		case "open", "openat", "openat2", "creat":
			if paths[0] == "" {
				continue
			}
			w := call == "creat" || strings.Contains(args, "O_WRONLY") || strings.Contains(args, "O_RDWR") ||
				strings.Contains(args, "O_CREAT") || strings.Contains(args, "O_TRUNC")
			switch {
			case w:
				op(paths[0]).wrote = true
			case strings.Contains(args, "O_DIRECTORY") && ok:
				op(paths[0]).looked = true
			case ok:
				op(paths[0]).read = true
			}
		case "unlink", "unlinkat", "rmdir":
			if paths[0] != "" {
				op(paths[0]).removed = true
			}
		case "rename", "renameat", "renameat2":
			if paths[0] != "" {
				op(paths[0]).removed = true
			}
			if len(paths) > 1 && paths[1] != "" {
				op(paths[1]).wrote = true
			}
		case "link", "linkat", "symlink", "symlinkat":
			if p := paths[len(paths)-1]; p != "" {
				op(p).wrote = true
			}
			if len(paths) > 1 && paths[0] != "" {
				op(paths[0]).looked = true
			}
		case "mkdir", "mkdirat", "mknod", "mknodat", "truncate", "chmod", "fchmodat", "chown", "lchown", "fchownat",
			"utime", "utimes", "utimensat", "futimesat", "setxattr", "lsetxattr", "removexattr", "lremovexattr":
			if paths[0] != "" {
				op(paths[0]).wrote = true
			}
		default: // stat, access, readlink, getxattr, statfs, chdir, …
			if paths[0] != "" {
				op(paths[0]).looked = true
			}
		}
	}
	// The row's reading, by path (maybe values are not judged).
	type ref struct{ write, removed, rec bool }
	refs := map[string]ref{}
	for _, tok := range strings.Fields(row.reading) {
		p, marks, _ := strings.Cut(tok, ":")
		if strings.Contains(tok, ":maybe") || p == "unknown" || p == "hit" || p == "finding" || p == "unknown-option" {
			continue
		}
		r := refs[path.Clean(p)]
		r.write = r.write || strings.Contains(":"+marks, ":w")
		r.removed = r.removed || strings.Contains(":"+marks, ":rm")
		r.rec = r.rec || strings.Contains(":"+marks, ":rec")
		refs[path.Clean(p)] = r
	}
	guarded := strings.Contains(row.reading, "hit:")
	// writtenDir: p is a new entry of a directory the row reads as
	// written (split's output files in ".").
	writtenDir := func(p string) bool {
		r, ok := refs[path.Dir(p)]
		return ok && r.write
	}
	covered := func(p string) (ref, bool) {
		for q := p; ; q = path.Dir(q) {
			if r, ok := refs[q]; ok && (q == p || r.rec) {
				return r, true
			}
			if q == "." || q == "/" {
				return ref{}, false
			}
		}
	}
	for p, o := range ops {
		if p == "." && !o.wrote && !o.removed {
			continue // the directory itself, looked at (fsync, getcwd)
		}
		if _, err := os.Lstat(filepath.Join(dir, p)); err != nil && !made[p] && (o.wrote || o.removed) {
			continue // made and removed again: a temporary name
		}
		r, named := covered(p)
		switch {
		case (o.wrote || o.removed) && !r.write && !writtenDir(p):
			if guarded {
				t.Logf("%q: the real program writes or removes %s, behind the guarded option the row names", row.cmd, p)
				continue
			}
			t.Errorf("%q: the real program writes or removes %s (%+v), the row reads %q", row.cmd, p, *o, row.reading)
		case o.read && !named:
			t.Errorf("%q: the real program reads %s, the row does not name it: %q", row.cmd, p, row.reading)
		}
	}
	for p, r := range refs {
		o := ops[p]
		if slices.Contains(strings.Fields(row.unjudged), p) {
			continue
		}
		if r.write && o != nil && !o.wrote && !o.removed && slices.ContainsFunc(sortedKeys(ops), func(q string) bool {
			return path.Dir(q) == p && (ops[q].wrote || ops[q].removed)
		}) {
			continue // a directory the program writes a new entry into (split's ".")
		}
		switch {
		case o == nil:
			t.Errorf("%q: the row names %s, the real program did not touch it (trace: %v)", row.cmd, p, sortedKeys(ops))
		case r.write && !o.wrote && !o.removed:
			t.Errorf("%q: the row reads %s as written, the real program only %+v it", row.cmd, p, *o)
		case r.removed && o.wrote:
			t.Errorf("%q: the row reads %s as removed, the real program writes it", row.cmd, p)
		}
	}
}
